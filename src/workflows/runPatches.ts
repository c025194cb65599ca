import { patched } from '@temporalio/workflow';

/**
 * The run workflow's patches, by the name each writes into a run's history: a run started
 * before a patch replays the older side of it, so a name here is never changed or removed
 * while such runs may still be in flight (test/fixtures/histories holds both sides of each).
 */
export const runPatch = {
  /** The host is claimed by the worker running the workflow task (a local activity), not through the shared queue. */
  claimHostLocally: 'claim-host-locally',
  /** The stage search attribute is written only when it changes, together with whatever else is written at that point. */
  fewerSearchAttributeWrites: 'fewer-search-attribute-writes',
  /** Host stages run inside the workflow task on the run's own host. */
  hostStagesHere: 'host-stages-here',
  /** The run's first host stage claims its host (one local activity, not two). */
  claimWithPrepare: 'claim-with-prepare',
  /** The run's verdict and the viewer's link are written into its memo as it ends, so the Web UI shows them without a worker. */
  verdictMemo: 'verdict-memo',
} as const;

/** Which side of its patches a run is on; each patch asked is a marker and a search attribute write. */
export interface RunPatches {
  claimWithPrepare: boolean;
  hostStagesHere: boolean;
  fewerWrites: boolean;
}

/**
 * Asks the patches a run asks as it starts, newest first: a run started since a newer patch
 * is on the newer side of the older ones too, without asking them.
 */
export function runPatches(): RunPatches {
  // Since this patch the run's first host stage claims its host (one local activity, not
  // two). Runs started since it run their host stages here too, without asking that older
  // patch (each patch asked is a marker and a search attribute write).
  const claimWithPrepare = patched(runPatch.claimWithPrepare);
  // Host stages run inside the workflow task on the run's own host, since this patch. Runs
  // started since it also write fewer search attributes without asking that older patch.
  const hostStagesHere = claimWithPrepare || patched(runPatch.hostStagesHere);
  // Each search attribute write is a visibility write on the server: runs started since this
  // patch write the stage only when it changes (the batch starts a run at prepare), together
  // with whatever else is written at that point.
  const fewerWrites = hostStagesHere || patched(runPatch.fewerSearchAttributeWrites);
  return { claimWithPrepare, hostStagesHere, fewerWrites };
}
