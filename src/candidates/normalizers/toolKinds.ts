import type { ToolInfo } from '../../transcript/schema.js';

export type ToolKind = ToolInfo['kind'];

/**
 * Every agent's own tool names mapped to the harness kinds, one exact-key table (lower-cased
 * keys). Claude Code, Qwen/Gemini, Codex items, opencode, Cursor `*ToolCall` keys and the
 * builtin candidate all meet here.
 */
const TOOL_KINDS = {
  // shell
  bash: 'shell',
  run_shell_command: 'shell',
  run_shell: 'shell',
  shell: 'shell',
  command_execution: 'shell',
  exec_command: 'shell',
  local_shell: 'shell',
  shelltoolcall: 'shell',
  bashoutput: 'shell',
  // read
  read: 'read',
  read_file: 'read',
  read_many_files: 'read',
  readtoolcall: 'read',
  notebookread: 'read',
  view: 'read',
  // write
  write: 'write',
  write_file: 'write',
  create_file: 'write',
  writetoolcall: 'write',
  // edit
  edit: 'edit',
  multiedit: 'edit',
  replace: 'edit',
  notebookedit: 'edit',
  apply_patch: 'edit',
  patch: 'edit',
  file_change: 'edit',
  edittoolcall: 'edit',
  deletetoolcall: 'edit',
  delete: 'edit',
  // search
  grep: 'search',
  glob: 'search',
  search_file_content: 'search',
  grep_search: 'search',
  codebase_search: 'search',
  greptoolcall: 'search',
  globtoolcall: 'search',
  semsearchtoolcall: 'search',
  // list
  ls: 'list',
  list: 'list',
  list_directory: 'list',
  list_files: 'list',
  lstoolcall: 'list',
  // web
  webfetch: 'web',
  websearch: 'web',
  web_fetch: 'web',
  web_search: 'web',
  google_web_search: 'web',
  webfetchtoolcall: 'web',
  websearchtoolcall: 'web',
  // subagents
  task: 'task',
  agent: 'task',
  invoke_agent: 'task', // Gemini CLI (0.61): one tool naming the subagent in agent_name
  // skills (Claude Code, CodeBuddy, Qwen Code, opencode; Gemini's activate_skill) and Claude Code's older SlashCommand
  skill: 'skill',
  activate_skill: 'skill',
  slashcommand: 'skill',
} satisfies Record<string, ToolKind>;

/** The harness kind of an agent's tool name; unknown names are `other`. */
export function toolKindOf(name: string): ToolKind {
  const key = name.toLowerCase();
  return Object.hasOwn(TOOL_KINDS, key) ? TOOL_KINDS[key as keyof typeof TOOL_KINDS] : 'other';
}
