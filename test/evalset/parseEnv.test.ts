import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../src/evalset/index.js';

const FILE = 'eval_sets/demo/env.yaml';
const KNOWN = 'expected ${SANDBOX_DIR}, ${RUN_DIR} or ${CASE_DIR}';
const EMPTY_ENV = { setup_commands: [], preconditions: [], post_run_cleanup: [], postconditions: [] };

describe('parseEnv', () => {
  it.each(['', '# no setup needed\n', '{}\n'])('treats %j as a valid empty env', (text) => {
    expect(parseEnv(text, FILE)).toEqual({ env: EMPTY_ENV, problems: [] });
  });

  it('reads all four keys', () => {
    const text = `setup_commands:
  - npm ci
preconditions:
  - description: project present
    check: test -f "\${SANDBOX_DIR}/package.json"
    severity: hard
post_run_cleanup:
  - rm -rf "\${RUN_DIR}/tmp"
postconditions:
  - description: fixtures untouched
    check: diff -r "\${CASE_DIR}/fixtures" "\${SANDBOX_DIR}/fixtures"
    severity: soft
`;
    expect(parseEnv(text, FILE)).toEqual({
      env: {
        setup_commands: ['npm ci'],
        preconditions: [{ description: 'project present', check: 'test -f "${SANDBOX_DIR}/package.json"', severity: 'hard' }],
        post_run_cleanup: ['rm -rf "${RUN_DIR}/tmp"'],
        postconditions: [
          { description: 'fixtures untouched', check: 'diff -r "${CASE_DIR}/fixtures" "${SANDBOX_DIR}/fixtures"', severity: 'soft' },
        ],
      },
      problems: [],
    });
  });

  it('rejects unknown keys at the top and inside a condition', () => {
    const text = 'setup: [ls]\npreconditions:\n  - description: d\n    check: "true"\n    severity: hard\n    timeout: 5\n';
    expect(parseEnv(text, FILE).problems).toEqual([
      `${FILE}:1: setup: unknown key; expected one of: setup_commands, setup_network, preconditions, post_run_cleanup, postconditions, protected`,
      `${FILE}:6: preconditions.0.timeout: unknown key; expected one of: description, check, severity`,
    ]);
  });

  it('rejects a bad or missing severity', () => {
    const text = 'postconditions:\n  - description: d\n    check: "true"\n    severity: critical\n  - description: e\n    check: "true"\n';
    expect(parseEnv(text, FILE).problems).toEqual([
      `${FILE}:4: postconditions.0.severity: expected one of "hard"|"soft", found "critical"`,
      `${FILE}:5: postconditions.1.severity: missing; expected one of "hard"|"soft"`,
    ]);
  });

  it('rejects a list written as a mapping and empty commands', () => {
    expect(parseEnv('setup_commands: ""\npost_run_cleanup: [""]\npreconditions: {}\n', FILE).problems).toEqual([
      `${FILE}:1: setup_commands: expected a list, found ""`,
      `${FILE}:2: post_run_cleanup.0: expected a shell command, found an empty string`,
      `${FILE}:3: preconditions: expected a list, found a mapping`,
    ]);
  });

  it('rejects unknown ${VAR} in every command field, naming the field path and line', () => {
    const text = `setup_commands:
  - echo "\${HOME}"
preconditions:
  - description: uses \${UNCHECKED} in prose, which is fine
    check: test -d "\${SANDBOX}"
    severity: hard
post_run_cleanup:
  - rm -rf "\${TMPDIR:-/tmp}/x"
postconditions:
  - description: d
    check: test "\${RUN_DIR}" != "\${CASE_DIR}" && test -n "\${sandbox_dir}"
    severity: soft
`;
    expect(parseEnv(text, FILE).problems).toEqual([
      `${FILE}:2: setup_commands.0: unknown variable \${HOME}; ${KNOWN} (write $HOME without braces for a shell variable)`,
      `${FILE}:5: preconditions.0.check: unknown variable \${SANDBOX}; ${KNOWN} (write $SANDBOX without braces for a shell variable)`,
      `${FILE}:8: post_run_cleanup.0: unknown variable \${TMPDIR:-/tmp}; ${KNOWN}`,
      `${FILE}:11: postconditions.0.check: unknown variable \${sandbox_dir}; ${KNOWN} (write $sandbox_dir without braces for a shell variable)`,
    ]);
  });

  it('leaves plain shell $VAR alone', () => {
    const text = 'setup_commands:\n  - echo "$HOME" $PATH $1 && tmp=$(mktemp -d) && echo "$tmp"\n';
    expect(parseEnv(text, FILE).problems).toEqual([]);
  });

  it('reports variable problems even when the shape is wrong too', () => {
    expect(parseEnv('setup_commands: ["echo ${X}"]\nextra: 1\n', FILE).problems).toEqual([
      `${FILE}:1: setup_commands.0: unknown variable \${X}; ${KNOWN} (write $X without braces for a shell variable)`,
      `${FILE}:2: extra: unknown key; expected one of: setup_commands, setup_network, preconditions, post_run_cleanup, postconditions, protected`,
    ]);
  });

  describe('protected', () => {
    const PATH_EXPECTED = 'expected a path relative to the repository root, such as test/slug.test.js or test/fixtures/';

    it('reads a list of files and folders; absent means the key stays absent', () => {
      expect(parseEnv('protected: [test/slug.test.js, test/fixtures/, .github/workflows/ci.yml]\n', FILE)).toEqual({
        env: { ...EMPTY_ENV, protected: ['test/slug.test.js', 'test/fixtures/', '.github/workflows/ci.yml'] },
        problems: [],
      });
      expect(parseEnv('postconditions: []\n', FILE).env).not.toHaveProperty('protected');
    });

    it('reports each bad entry on one line naming the file, its line and protected.<index>', () => {
      const text = ['protected:', '  - test/ok.js', '  - ""', '  - /etc/passwd', '  - test/../../secret', '  - .git/hooks/pre-commit', '  - vendor/lib/.GIT/config', '  - ./test', '  - test//a.js', '  - 3', ''].join('\n');
      expect(parseEnv(text, FILE).problems).toEqual([
        `${FILE}:3: protected.1: expected a path relative to the repository root, found an empty string`,
        `${FILE}:4: protected.2: ${PATH_EXPECTED}, found "/etc/passwd" (an absolute path)`,
        `${FILE}:5: protected.3: ${PATH_EXPECTED}, found "test/../../secret" (a ".." segment)`,
        `${FILE}:6: protected.4: ${PATH_EXPECTED}, found ".git/hooks/pre-commit" (a path inside .git)`,
        `${FILE}:7: protected.5: ${PATH_EXPECTED}, found "vendor/lib/.GIT/config" (a path inside .git)`,
        `${FILE}:8: protected.6: ${PATH_EXPECTED}, found "./test" (an empty or "." segment)`,
        `${FILE}:9: protected.7: ${PATH_EXPECTED}, found "test//a.js" (an empty or "." segment)`,
        `${FILE}:10: protected.8: expected a string, found 3`,
      ]);
    });

    it('rejects a single path written without a list', () => {
      expect(parseEnv('protected: test/slug.test.js\n', FILE).problems).toEqual([`${FILE}:1: protected: expected a list, found "test/slug.test.js"`]);
    });
  });

  it('reports malformed YAML with its line number', () => {
    expect(parseEnv('setup_commands:\n\t- ls\n', FILE).problems).toEqual([`${FILE}:2: invalid YAML: Tabs are not allowed as indentation`]);
    expect(parseEnv('setup_commands:\n  - ls\n  cleanup: 1\n', FILE).problems).toEqual([
      `${FILE}:3: invalid YAML: All mapping items must start at the same column`,
    ]);
  });
});

describe('parseEnv setup_network', () => {
  it('reads true or false, absent stays absent, anything else names the file, line and field', () => {
    expect(parseEnv('setup_network: true\nsetup_commands: [npm ci]\n', FILE).env!.setup_network).toBe(true);
    expect(parseEnv('setup_commands: []\n', FILE).env).not.toHaveProperty('setup_network');
    expect(parseEnv('setup_network: yes please\n', FILE).problems).toEqual([`${FILE}:1: setup_network: expected true or false, found "yes please"`]);
  });
});
