import type { Settings } from '../../config.js';
import { checkProjectFolder } from '../../sandbox/projectRepo.js';
import { checkWorkflowFolder } from '../../sandbox/workflowSnapshot.js';

/**
 * Problems with the project and workflow folders of `settings`, one line each, ending with the
 * flag and config key that set them. Runs on this machine would each fail in prepare with the
 * same problem, so `evalflow run` says it once, up front, and starts nothing.
 */
export async function checkLocalFolders(settings: Settings): Promise<string[]> {
  const config = settings.configPath ?? 'evalflow.config.yaml';
  const fix = (flag: string, key: string) => `; pass ${flag} <dir> or set ${key}: in ${config}`;
  const project = await checkProjectFolder(settings.project);
  const workflow = await checkWorkflowFolder(settings.workflowDir);
  return [
    ...(project ? [project + fix('--project', 'project')] : []),
    ...(workflow ? [workflow + fix('--workflow-dir', 'workflow_dir')] : []),
  ];
}
