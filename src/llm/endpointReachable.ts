import { connect } from 'node:net';

/** The OpenAI client's endpoint when neither the role nor OPENAI_BASE_URL names one. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * A model endpoint's URL as it may be shown: scheme, host, port and path only, so a
 * password or a key carried in the URL (`user:key@`, `?key=`) never reaches a log.
 */
export function shownEndpoint(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * Why the endpoint cannot be reached from here (one short phrase), or null when a TCP
 * connection to its host and port opens within `timeoutMs`. Nothing is sent: no request,
 * no key; the connection is closed as soon as it opens.
 */
export async function whyUnreachable(baseUrl: string, timeoutMs: number): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `expected an http:// or https:// URL, found ${url.protocol}//`;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  // URL keeps IPv6 hosts bracketed; net.connect wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why: string | null) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}
