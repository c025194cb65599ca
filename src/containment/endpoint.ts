import * as z from 'zod';
import type { Endpoint } from './sandboxView.js';

/** `host:port` of a remote endpoint a contained candidate may reach (its model provider). */
export const EndpointSchema = z
  .string()
  .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*:\d{1,5}$/, { error: 'expected host:port, e.g. api.anthropic.com:443' });

export function parseEndpoint(value: string): Endpoint {
  const at = value.lastIndexOf(':');
  return { host: value.slice(0, at), port: Number(value.slice(at + 1)) };
}

/** The remote `host:port` a base URL names (https defaults to 443), or undefined for a loopback or unreadable one. */
export function remoteEndpointOf(baseUrl: string | undefined): string | undefined {
  const endpoint = endpointOfUrl(baseUrl);
  return endpoint && !endpoint.loopback ? `${endpoint.host}:${endpoint.port}` : undefined;
}

/** The loopback port of a base URL (127.0.0.1, localhost, ::1), if it has one: what is relayed into a sandbox. */
export function loopbackPort(baseUrl: string | undefined): number | undefined {
  const endpoint = endpointOfUrl(baseUrl);
  return endpoint?.loopback ? endpoint.port : undefined;
}

function endpointOfUrl(baseUrl: string | undefined): (Endpoint & { loopback: boolean }) | undefined {
  if (!baseUrl) return undefined;
  try {
    const url = new URL(baseUrl);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    return { host: url.hostname, port, loopback: ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) };
  } catch {
    return undefined;
  }
}
