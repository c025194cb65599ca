/**
 * Where `evalflow view` listens unless told otherwise (flags, else the config's `view`), and a
 * run's page there: the Web UI links a run to it (its details and memo), so a person goes from
 * Temporal to the run's transcript.
 */
export const DEFAULT_VIEW_HOST = '127.0.0.1';
export const DEFAULT_VIEW_PORT = 8300;

/** Hosts that mean "every interface": they name no address a browser can open. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The viewer's address as the config gives it: `view.url` (a proxy, another machine), else
 * http://HOST:PORT of `view.host` / `view.port` (or their defaults); null when the host is a
 * wildcard, so nothing links to an address no browser can open.
 */
export function viewerBaseUrl(view: { host?: string | undefined; port?: number | undefined; url?: string | undefined }): string | null {
  if (view.url) return view.url.replace(/\/+$/, '');
  const host = view.host ?? DEFAULT_VIEW_HOST;
  if (WILDCARDS.has(host)) return null;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${view.port ?? DEFAULT_VIEW_PORT}`;
}

export function viewerRunUrl(runId: string, base: string): string {
  return `${base}/runs/${encodeURIComponent(runId)}`;
}

/** The line a run's details end with: its page in the viewer, or nothing when its address is unknown. */
export function viewerDetailsLine(spec: { runId: string; viewerUrl?: string | undefined }): string {
  if (!spec.viewerUrl) return '';
  const url = viewerRunUrl(spec.runId, spec.viewerUrl);
  return `\n- in evalflow view: [${url}](${url})`;
}
