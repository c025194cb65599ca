import { pinGitSource } from '../sandbox/gitMirror.js';
import { gitSourceOf } from '../sandbox/gitUrl.js';
import type { RunTemplate } from './runSpec.js';

/**
 * The template with its git URL sources pinned: the project's commit (`projectCommit`) and the
 * workflow's (`workflowRev`, unless one is pinned already), each its `#ref` or the remote's HEAD
 * as they are now. Done once when a batch starts, so every host of the batch tests the same
 * commits however the remote moves meanwhile. Local paths are left as they are.
 */
export async function pinSources(template: RunTemplate): Promise<RunTemplate> {
  const project = gitSourceOf(template.project);
  const workflow = gitSourceOf(template.workflowDir);
  const [projectCommit, workflowRev] = await Promise.all([
    project ? pinGitSource(project, 'project') : undefined,
    workflow && !template.workflowRev ? pinGitSource(workflow, 'workflow') : undefined,
  ]);
  return { ...template, ...(projectCommit ? { projectCommit } : {}), ...(workflowRev ? { workflowRev } : {}) };
}
