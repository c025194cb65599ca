import { mkdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { checkEvalCase, hashCaseFiles, MAX_CASE_FILE_BYTES } from '../../src/evalset/index.js';
import { aCase, ENV_YAML, META_YAML, RUBRIC_MD, TASK_MD, writeTree } from './caseFixture.js';

/** Reading the case files, as checkEvalCase does it: size, file type and encoding come first. */

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const GBK_PROMPT = Buffer.from([0xcc, 0xe2, 0xc3, 0xe6]); // 题面

const TASK_ZH = `## 题面

> 加一个函数。

## 场景背景

一位开发者。

## 考官指引

函数写好就结束。
`;

const RUBRIC_ZH = `## 硬性通过项

- 函数存在。

## 质量项

- 改动小。

## 典型失分项

- 忘了测试。
`;

/** Text of exactly `size` bytes that task.md accepts: a padded comment before the headings. */
function taskOfSize(size: number): string {
  const comment = (fill: number) => `<!-- ${'x'.repeat(fill)} -->\n`;
  return `${comment(size - Buffer.byteLength(comment(0) + TASK_MD))}${TASK_MD}`;
}

describe('case files: encoding', () => {
  it('accepts UTF-8 with Chinese headings and with or without a byte order mark, hashing the bytes as stored', async () => {
    const files = [Buffer.concat([BOM, Buffer.from(META_YAML('zh'))]), Buffer.from(TASK_ZH), Buffer.concat([BOM, Buffer.from(RUBRIC_ZH)]), Buffer.from(ENV_YAML)];
    const root = await writeTree(aCase('zh', { 'meta.yaml': files[0], 'task.md': files[1], 'rubric.md': files[2], 'env.yaml': files[3] }));
    const { evalCase, problems } = await checkEvalCase('zh', { cwd: root });
    expect(problems).toEqual([]);
    expect(evalCase).toMatchObject({
      meta: { id: 'zh' },
      task: { prompt: '加一个函数。', scenario: '一位开发者。', guidance: '函数写好就结束。' },
      rubric: { hard: ['函数存在。'], quality: ['改动小。'], commonFailures: ['忘了测试。'] },
    });
    expect(evalCase?.sha256).toBe(hashCaseFiles(files));
  });

  it('reports each file that is not UTF-8 as an encoding problem, before parsing it', async () => {
    const root = await writeTree(
      aCase('demo', {
        // Decoded as UTF-8, this would be one long string: "expected a mapping".
        'meta.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(META_YAML('demo'), 'utf16le')]),
        'task.md': Buffer.concat([Buffer.from('# Task\n\n## '), GBK_PROMPT, Buffer.from(TASK_MD.slice(TASK_MD.indexOf('\n\n> ')))]),
        'rubric.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
        'env.yaml': Buffer.from(ENV_YAML, 'utf16le').swap16(),
      }),
    );
    const { evalCase, problems } = await checkEvalCase('demo', { cwd: root });
    expect(evalCase).toBeUndefined();
    expect(problems).toEqual([
      'demo/meta.yaml: encoding: expected UTF-8 text, found UTF-16LE (byte order mark FF FE)',
      'demo/task.md:3: encoding: expected UTF-8 text, found bytes that are not UTF-8 at offset 11 (GBK or another legacy encoding?)',
      'demo/rubric.md: encoding: expected UTF-8 text, found binary data (NUL bytes)',
      'demo/env.yaml: encoding: expected UTF-8 text, found UTF-16BE (no byte order mark)',
    ]);
  });

  it('still parses the files that are UTF-8, listing what could not be read first', async () => {
    const root = await writeTree(aCase('demo', { 'task.md': Buffer.from(TASK_MD, 'utf16le'), 'meta.yaml': `${META_YAML('demo')}model: x\n` }));
    expect((await checkEvalCase('demo', { cwd: root })).problems).toEqual([
      'demo/task.md: encoding: expected UTF-8 text, found UTF-16LE (no byte order mark)',
      expect.stringMatching(/^demo\/meta\.yaml:8: model: eval cases never name the supply side/),
    ]);
  });
});

describe('case files: size', () => {
  it('states the limits: 256 KB for the markdown files, 64 KB for the YAML files', () => {
    expect(MAX_CASE_FILE_BYTES).toEqual({ 'meta.yaml': 65536, 'task.md': 262144, 'rubric.md': 262144, 'env.yaml': 65536 });
  });

  it('accepts a file of exactly the limit and reports one byte more, rounded up', async () => {
    const root = await writeTree({
      ...aCase('at-limit', { 'task.md': taskOfSize(MAX_CASE_FILE_BYTES['task.md']) }),
      ...aCase('over', { 'task.md': taskOfSize(MAX_CASE_FILE_BYTES['task.md'] + 1), 'env.yaml': `${ENV_YAML}#${'x'.repeat(64 * 1024)}\n` }),
    });
    expect((await checkEvalCase('at-limit', { cwd: root })).problems).toEqual([]);
    expect((await checkEvalCase('over', { cwd: root })).problems).toEqual([
      'over/task.md: size: expected at most 256 KB, found 256.1 KB',
      'over/env.yaml: size: expected at most 64 KB, found 64.3 KB',
    ]);
  });

  it('reports an enormous file in MB or GB', async () => {
    const root = await writeTree(aCase('big', { 'rubric.md': `${RUBRIC_MD}\n<!-- ${'x'.repeat(3_250_000)} -->\n`, 'meta.yaml': 'id: big\n' }));
    // 5 GB, more than Node can read into one buffer: only a size check before reading passes this.
    await truncate(path.join(root, 'big', 'meta.yaml'), 5 * 1024 ** 3);
    expect((await checkEvalCase('big', { cwd: root })).problems).toEqual([
      'big/meta.yaml: size: expected at most 64 KB, found 5 GB',
      'big/rubric.md: size: expected at most 256 KB, found 3.1 MB',
    ]);
  });
});

describe('case files: not a file', () => {
  it('reports a folder named like a case file', async () => {
    const root = await writeTree(aCase('demo', { 'task.md': undefined }));
    await mkdir(path.join(root, 'demo', 'task.md'));
    await writeFile(path.join(root, 'demo', 'task.md', 'inside.md'), TASK_MD);
    expect((await checkEvalCase('demo', { cwd: root })).problems).toEqual(['demo/task.md: expected a file, found a folder']);
  });

  it('reports a named pipe without opening it, which would wait for a writer', async () => {
    const root = await writeTree(aCase('demo', { 'env.yaml': undefined }));
    await execa('mkfifo', [path.join(root, 'demo', 'env.yaml')]);
    expect((await checkEvalCase('demo', { cwd: root })).problems).toEqual(['demo/env.yaml: expected a file, found a special file']);
  });
});
