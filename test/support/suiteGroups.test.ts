import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testFilesThatRunAlone, testFilesThatRunBeside } from './suiteGroups.js';

describe('testFilesThatRunAlone', () => {
  const roots: string[] = [];
  afterAll(async () => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

  async function tree(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'evalflow-suite-groups-'));
    roots.push(root);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), text);
    }
    return root;
  }

  it('sorts a file by what it starts, directly or through the test modules it imports', async () => {
    const root = await tree({
      'test/support/server.ts': "import { startTestTemporal } from './temporalServer.js';\nexport const start = startTestTemporal;\n",
      'test/support/fixture.ts': "import { start } from './server.js';\nexport const fixture = start;\n",
      'test/support/pure.ts': 'export const pure = 1;\n',
      'test/run/direct.test.ts': "import { spawn } from 'node:child_process';\n",
      'test/run/twoHops.test.ts': "import { fixture } from '../support/fixture.js';\n",
      'test/run/pure.test.ts': "import { pure } from '../support/pure.js';\n",
      'test/run/cycle.test.ts': "import { a } from './cycleA.js';\n",
      'test/run/cycleA.ts': "import { b } from './cycleB.js';\n",
      'test/run/cycleB.ts': "import { a } from './cycleA.js';\n",
      'test/fixtures/ignored.test.ts': "import { spawn } from 'node:child_process';\n",
    });
    expect(testFilesThatRunAlone(root)).toEqual(['test/run/direct.test.ts', 'test/run/twoHops.test.ts']);
  });

  it('runs beside the others only a file that starts servers and says it mostly waits', async () => {
    const root = await tree({
      'test/run/waits.test.ts': "// suite group: beside (it waits on a minute boundary)\nimport { spawn } from 'node:child_process';\n",
      'test/run/busy.test.ts': "import { spawn } from 'node:child_process';\n",
      'test/run/pure.test.ts': '// suite group: beside\nexport const pure = 1;\n',
      'test/run/mentions.test.ts': "import { spawn } from 'node:child_process';\nconst text = '// suite group: beside';\n",
    });
    expect(testFilesThatRunBeside(root)).toEqual(['test/run/waits.test.ts']);
  });

  it('puts the suite\'s real-server files alone and its pure files together', () => {
    const alone = testFilesThatRunAlone(resolve(import.meta.dirname, '../..'));
    expect(alone).toContain('test/workflows/crashRecovery.test.ts');
    expect(alone).toContain('test/commands/worker.scaleOut.test.ts');
    expect(alone).toContain('test/containment/escapes.test.ts');
    expect(alone).not.toContain('test/stats/newcombe.test.ts');
    expect(alone).not.toContain('test/judge/compact.test.ts');
    const beside = testFilesThatRunBeside(resolve(import.meta.dirname, '../..'));
    expect(beside).toContain('test/commands/run.outage.test.ts');
    expect(beside).not.toContain('test/commands/worker.scaleOut.test.ts');
  });
});
