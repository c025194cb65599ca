import type { CaseFile } from './schema.js';

/**
 * The four files of a new eval case, with placeholder text that already passes validation, so
 * an author can run `evalflow validate` at every step of filling it in. HTML comments carry
 * the authoring hints; the parsers skip them.
 */
export function scaffoldEvalCase(id: string): Record<CaseFile, string> {
  return {
    'meta.yaml': metaYaml(id),
    'task.md': TASK_MD,
    'rubric.md': RUBRIC_MD,
    'env.yaml': ENV_YAML,
  };
}

function metaYaml(id: string): string {
  return `# What this case tests. Never name a model, agent or IDE here: that is the supply side,
# set in evalflow.config.yaml or with command-line flags.
id: ${id}
# Bump by hand (v2, v3, ...) only when an edit can change verdicts.
version: v1
target_workflow: default
category: feature
purpose: TODO one sentence on what this case checks about the workflow
max_turns: 3
tags: []
`;
}

const TASK_MD = `# Task

<!-- Turn 1 is the blockquote under Prompt, sent to the candidate word for word. -->
## Prompt

> TODO: the first message of the user, exactly as they would type it.

<!-- Only the examiner (the simulated user) reads Scenario and Guidance. -->
## Scenario

TODO: who the user is, what they want, and the facts they know but did not say in turn 1.

## Guidance

TODO: how to answer the candidate's questions in turn 2 and later, when to reveal the key
facts, and when to end the dialogue (say <<END>>).
`;

const RUBRIC_MD = `# Rubric

<!-- 1 to 5 items, all must hold to pass; each one verifiable from tool calls, commands,
     file writes or postcondition results in the transcript. -->
## Hard requirements

- TODO: the one thing the candidate must have done, checkable from its tool events.

<!-- Items that raise or lower the scores but never block a pass. May be empty. -->
## Quality

- TODO: what a better solution does (tests, small diff, clear explanation).

<!-- Mistakes seen in earlier runs, to help the judge spot them. May be empty. -->
## Common failures

- TODO: a typical way candidates get this wrong.
`;

const ENV_YAML = `# Shell commands run in the sandbox (a git worktree of the project). Variables:
# \${SANDBOX_DIR}, \${RUN_DIR}, \${CASE_DIR}; plain $VAR is left to the shell.
setup_commands: []
preconditions:
  - description: the project is checked out in the sandbox
    check: test -d "\${SANDBOX_DIR}"
    severity: hard
post_run_cleanup: []
postconditions: []
`;
