import { runsAndBatches } from './001_runs_and_batches.js';
import { transcriptEvents } from './002_transcript_events.js';
import { scores } from './003_scores.js';
import { editPrediction } from './004_edit_prediction.js';
import { runRejudgeInputs } from './005_run_rejudge_inputs.js';
import { structuredAnomalies } from './006_structured_anomalies.js';
import { batchPlan } from './007_batch_plan.js';
import { runSteps } from './008_run_steps.js';
import { runFacts } from './009_run_facts.js';
import { judgeSamples } from './010_judge_samples.js';
import { reviews } from './011_reviews.js';
import { schedules } from './012_schedules.js';
import { workflowUsage } from './013_workflow_usage.js';
import { lookupIndices } from './014_lookup_indices.js';
import { hosts } from './015_hosts.js';
import { caseCalibrations } from './016_case_calibrations.js';
import { casePacks } from './017_case_packs.js';
import { batchDecisions } from './018_batch_decisions.js';
import { runsWorkflowRevPrefix } from './019_runs_workflow_rev_prefix.js';
import { runsLookupColumns } from './020_runs_lookup_columns.js';
import { revisionCaseCounts } from './021_revision_case_counts.js';
import { scoreJudgings } from './022_score_judgings.js';
import { verdictRunLock } from './023_verdict_run_lock.js';
import { runsWorkflowInvoked } from './024_runs_workflow_invoked.js';
import type { Migration } from './migration.js';

/** Every migration, in the order they apply. Append only. */
export const migrations: readonly Migration[] = [runsAndBatches, transcriptEvents, scores, editPrediction, runRejudgeInputs, structuredAnomalies, batchPlan, runSteps, runFacts, judgeSamples, reviews, schedules, workflowUsage, lookupIndices, hosts, caseCalibrations, casePacks, batchDecisions, runsWorkflowRevPrefix, runsLookupColumns, revisionCaseCounts, scoreJudgings, verdictRunLock, runsWorkflowInvoked];

export type { Migration };
