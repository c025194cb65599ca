import { networkInterfaces } from 'node:os';
import * as z from 'zod';
import { ConfigError } from '../errors.js';

/** Every port the team server listens on; membership ports sit in a smallint column, hence ≤ 32767. */
export const TeamPortsSchema = z
  .object({
    frontend: z.number().int().min(1).max(65_535),
    history: z.number().int().min(1).max(65_535),
    matching: z.number().int().min(1).max(65_535),
    worker: z.number().int().min(1).max(65_535),
    http: z.number().int().min(1).max(65_535),
    frontend_membership: z.number().int().min(1).max(32_767),
    history_membership: z.number().int().min(1).max(32_767),
    matching_membership: z.number().int().min(1).max(32_767),
    worker_membership: z.number().int().min(1).max(32_767),
    metrics: z.number().int().min(1).max(65_535),
    ui: z.number().int().min(1).max(65_535),
  })
  .strict();
export type TeamPorts = z.infer<typeof TeamPortsSchema>;
export const TEAM_PORT_NAMES = Object.keys(TeamPortsSchema.shape) as (keyof TeamPorts)[];

/** Ports not given are placed beside the frontend port, as they always were (+1, +2, +6, +10, +11, −300…−294). */
export function teamPortsOf(frontend: number, ui: number, given: Partial<TeamPorts> = {}): TeamPorts {
  const derived: TeamPorts = {
    frontend,
    history: frontend + 1,
    matching: frontend + 2,
    worker: frontend + 6,
    http: frontend + 10,
    frontend_membership: frontend - 300,
    history_membership: frontend - 299,
    matching_membership: frontend - 298,
    worker_membership: frontend - 294,
    metrics: frontend + 11,
    ui,
  };
  const ports = { ...derived, ...given };
  const result = TeamPortsSchema.safeParse(ports);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0]);
    const defaulted = !(name in given);
    throw new ConfigError(`--ports ${name}=${(ports as Record<string, unknown>)[name]}: ${issue.message}${defaulted ? ` (placed beside frontend port ${frontend}; give ${name}=PORT or another frontend port)` : ''}`);
  }
  const seen = new Map<number, string>();
  for (const name of TEAM_PORT_NAMES) {
    const other = seen.get(ports[name]);
    if (other) throw new ConfigError(`--ports: ${other} and ${name} both use port ${ports[name]}; give each its own`);
    seen.set(ports[name], name);
  }
  return result.data;
}

/** `--ports history=7234,metrics=9090`: the ports to place by hand. */
export function parsePortsFlag(value: string): Partial<TeamPorts> {
  const given: Partial<TeamPorts> = {};
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z_]+)=(\d+)$/.exec(part);
    const name = match?.[1] as keyof TeamPorts | undefined;
    if (!match || !name || !TEAM_PORT_NAMES.includes(name)) throw new ConfigError(`--ports ${part}: expected NAME=PORT with NAME one of ${TEAM_PORT_NAMES.join(', ')}`);
    given[name] = Number(match[2]);
  }
  return given;
}

export const isLoopback = (address: string) => /^(127\.|::1$|localhost$)/.test(address);
export const isWildcard = (address: string) => address === '0.0.0.0' || address === '::';

/** The address other hosts reach for one bound to `bind` (the first external IPv4 for a wildcard). */
export function advertisedAddress(bind: string): string {
  if (!isWildcard(bind)) return bind;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

/** The lines `evalflow server` prints: every port, so a firewall can be opened for exactly these. */
export function describeTeamPorts(bind: string, ports: TeamPorts): string[] {
  return [
    `listening on ${bind}: frontend gRPC ${ports.frontend} (workers and CLIs), frontend HTTP ${ports.http}, Web UI ${ports.ui}, metrics ${ports.metrics}`,
    `internal (between the server's services only): history ${ports.history}, matching ${ports.matching}, worker ${ports.worker}; membership ${ports.frontend_membership}, ${ports.history_membership}, ${ports.matching_membership}, ${ports.worker_membership}`,
  ];
}
