import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLocalFolders } from '../../../src/cli/checks/checkLocalFolders.js';
import { loadSettings } from '../../../src/config.js';
import { writeTree } from '../../evalset/caseFixture.js';

const PROJECT_EXPECTED = 'expected a folder (a git repository or a plain folder)';
const WORKFLOW_EXPECTED = 'expected a folder holding at least one of agents/, commands/, rules/, skills/';

describe('checkLocalFolders', () => {
  it('finds nothing wrong with a project folder and a workflow folder holding one of the four', async () => {
    const root = await writeTree({ 'evalflow.config.yaml': 'project: app\nworkflow_dir: team\n', 'app/index.js': '', 'team/skills/a.md': '' });
    expect(await checkLocalFolders(await loadSettings(root, {}))).toEqual([]);
  });

  it('names each bad folder, what was expected and found, and the config key that set it', async () => {
    const root = await writeTree({ 'evalflow.config.yaml': 'project: app.zip\nworkflow_dir: team\n', 'app.zip': 'PK' });
    await mkdir(join(root, 'team'));
    const config = join(root, 'evalflow.config.yaml');
    expect(await checkLocalFolders(await loadSettings(root, {}))).toEqual([
      `project folder ${join(root, 'app.zip')}: ${PROJECT_EXPECTED}, found a file; pass --project <dir> or set project: in ${config}`,
      `workflow folder ${join(root, 'team')}: ${WORKFLOW_EXPECTED}, found an empty folder; pass --workflow-dir <dir> or set workflow_dir: in ${config}`,
    ]);
  });

  it('names evalflow.config.yaml when there is no config file, for paths given as flags', async () => {
    const root = await writeTree({ 'notes.md': '', 'app/index.js': '' });
    const settings = await loadSettings(root, {}, { project: 'app', workflowDir: 'notes.md' });
    expect(await checkLocalFolders(settings)).toEqual([
      `workflow folder ${join(root, 'notes.md')}: ${WORKFLOW_EXPECTED}, found a file; pass --workflow-dir <dir> or set workflow_dir: in evalflow.config.yaml`,
    ]);
    const missing = await loadSettings(root, {}, { project: 'gone', workflowDir: 'gone/workflow' });
    expect(await checkLocalFolders(missing)).toEqual([
      `project folder ${join(root, 'gone')}: ${PROJECT_EXPECTED}, found no such file or folder; pass --project <dir> or set project: in evalflow.config.yaml`,
      `workflow folder ${join(root, 'gone/workflow')}: ${WORKFLOW_EXPECTED}, found no such file or folder; pass --workflow-dir <dir> or set workflow_dir: in evalflow.config.yaml`,
    ]);
  });
});
