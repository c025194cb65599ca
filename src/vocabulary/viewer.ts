/**
 * Where `evalflow view` listens unless told otherwise, and a run's page there: the Web UI links
 * a run to it (its details and memo), so a person goes from Temporal to the run's transcript.
 * A viewer started on another --host or --port serves the same paths.
 */
export const DEFAULT_VIEW_HOST = '127.0.0.1';
export const DEFAULT_VIEW_PORT = 8300;

export function viewerRunUrl(runId: string): string {
  return `http://${DEFAULT_VIEW_HOST}:${DEFAULT_VIEW_PORT}/runs/${encodeURIComponent(runId)}`;
}
