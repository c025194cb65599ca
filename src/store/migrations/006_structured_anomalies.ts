import type { Migration } from './migration.js';

/**
 * Run anomalies become objects (`{kind, …}`, as the run workflow records them) instead of
 * display strings, so reports can count repeated spend, outages and lost hosts. Strings
 * written by earlier versions become `{kind: 'other', detail}`.
 */
export const structuredAnomalies: Migration = {
  version: 6,
  name: 'structured_anomalies',
  sql: `
UPDATE runs
   SET anomalies = coalesce(
         (SELECT jsonb_agg(CASE WHEN jsonb_typeof(item) = 'string'
                                THEN jsonb_build_object('kind', 'other', 'detail', item #>> '{}')
                                ELSE item END)
            FROM jsonb_array_elements(anomalies) AS item),
         '[]'::jsonb)
 WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(anomalies) AS item WHERE jsonb_typeof(item) = 'string');
`,
};
