import { isIP } from 'node:net';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * Whether a request's Host header names this server: loopback or the `--host` address, on the
 * port the request arrived at. A page on another site that rebinds its DNS name to 127.0.0.1
 * still sends its own name as Host, so it is refused (DNS rebinding). Bound to every interface,
 * an IP address is accepted too: a literal address cannot be rebound.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, localPort: number | undefined): boolean {
  if (!hostHeader) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim().toLowerCase());
  if (!match) return false;
  const name = match[1]!.replace(/^\[|\]$/g, '');
  const port = match[2] === undefined ? 80 : Number(match[2]);
  if (port !== localPort) return false;
  const bound = boundHost.toLowerCase().replace(/^\[|\]$/g, '');
  return LOOPBACK.has(name) || name === bound || (WILDCARD.has(bound) && isIP(name) !== 0);
}
