import { isolationOf } from '../containment/isolationOf.js';
import { whyCannotContain } from '../containment/probeContainment.js';
import { ConfigError } from '../errors.js';
import type { CandidateSpec } from './adapter.js';
import { checkCandidateCanStart } from './checkCandidateCanStart.js';

/**
 * Why this host cannot run the candidate, as one line, or null when it can: its agent CLI or
 * command must start here (the check `run` makes on the client), and a candidate to be
 * contained needs bubblewrap. Each worker host asks it before it takes a run, so a run never
 * lands on a host that lacks what its candidate needs.
 */
export async function whyCannotRunHere(spec: CandidateSpec, hostEnv: NodeJS.ProcessEnv): Promise<string | null> {
  if (isolationOf(spec) === 'sandbox') {
    const why = whyCannotContain();
    if (why) return `candidate "${spec.name}" asks for a sandbox: ${why}`;
  }
  try {
    await checkCandidateCanStart(spec, hostEnv);
    return null;
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
}
