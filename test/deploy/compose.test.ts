import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { allSearchAttributeKeys } from '../../src/temporal/names.js';

const REPO = resolve(import.meta.dirname, '../..');

interface Compose {
  services: Record<string, { image: string; ports?: string[]; volumes?: string[]; entrypoint?: string[]; depends_on?: Record<string, { condition: string }> }>;
}

/**
 * No Docker engine runs here, so the compose file is checked statically: its structure, the
 * files it mounts, its scripts' syntax, and that it registers exactly evalflow's search attributes.
 */
describe('docker-compose.yml (team mode)', () => {
  it('wires PostgreSQL → schema setup → server → namespace, and the UI', async () => {
    const compose = parseYaml(await readFile(join(REPO, 'docker-compose.yml'), 'utf8')) as Compose;
    expect(Object.keys(compose.services).sort()).toEqual(['postgresql', 'temporal', 'temporal-namespace', 'temporal-schema', 'temporal-ui']);
    expect(compose.services['temporal-schema']!.depends_on).toEqual({ postgresql: { condition: 'service_healthy' } });
    expect(compose.services.temporal!.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(compose.services['temporal-namespace']!.depends_on).toEqual({ temporal: { condition: 'service_healthy' } });
    expect(compose.services.temporal!.ports).toEqual(['7233:7233']);
    expect(compose.services.temporal!.image).toBe('temporalio/server:1.29.1');
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const host = volume.split(':')[0]!;
        if (host.startsWith('./')) expect(existsSync(join(REPO, host)), volume).toBe(true);
      }
    }
  });

  it('ships shell scripts that parse', async () => {
    for (const script of ['setup-postgres.sh', 'create-namespace.sh']) {
      const result = await execa('sh', ['-n', join(REPO, 'deploy/compose', script)], { reject: false });
      expect(result.exitCode, `${script}: ${result.stderr}`).toBe(0);
    }
  });

  it('registers exactly the search attributes the workflows use', async () => {
    const script = await readFile(join(REPO, 'deploy/compose/create-namespace.sh'), 'utf8');
    const listed = /for attr in ([^;]+);/.exec(script)![1]!.trim().split(/\s+/).sort();
    const expected = allSearchAttributeKeys.map((key) => `${key.name}:${key.type.charAt(0)}${key.type.slice(1).toLowerCase()}`).sort();
    expect(listed).toEqual(expected);
  });
});
