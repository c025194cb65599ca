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
  if (!baseUrl) return undefined;
  try {
    const url = new URL(baseUrl);
    if (['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return undefined;
    return `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  } catch {
    return undefined;
  }
}
