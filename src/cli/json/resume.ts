import * as z from 'zod';
import { RunJson } from './runs.js';
import { jsonDocument } from './document.js';

export const ResumeJson = jsonDocument(1, 'The resumed run as it ended (`evalflow resume RUN_ID`); nothing on stdout when the workflow failed (exit 1, the reason on stderr).', {
  run: RunJson.describe('the run as the store has it after the resume, as `evalflow runs --json` lists it'),
  anomalies: z.array(z.object({ kind: z.string().describe('host_lost, model_outage, timeout, infra_retries, repeated_spend, …: the anomaly as review.md names it'), description: z.string().describe('what happened, in words') })).describe('what went unusually in this resume, in words'),
  error: z.string().nullable().describe('why the run did not complete; null when it did'),
});
