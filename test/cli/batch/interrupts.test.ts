import { afterEach, describe, expect, it } from 'vitest';
import { handleInterrupts, interruptChoice, type InterruptMode } from '../../../src/cli/batch/interrupts.js';
import { memoryIo, type CommandIo } from '../../../src/cli/io.js';

describe('handleInterrupts', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  function follow(mode: InterruptMode, io: CommandIo): string[] {
    const done: string[] = [];
    stop = handleInterrupts(mode, io, { detach: () => done.push('detach'), cancel: () => done.push('cancel'), leave: () => done.push('leave') });
    return done;
  }

  it('without a terminal, asking means detaching; later Ctrl-Cs change nothing', () => {
    const done = follow('ask', memoryIo('/tmp'));
    process.emit('SIGINT');
    process.emit('SIGINT');
    expect(done).toEqual(['detach']);
  });

  it('on a terminal it asks once: Enter detaches, c cancels, and a Ctrl-C after cancelling leaves', async () => {
    const questions: string[] = [];
    const answers = ['', 'c'];
    const io = { ...memoryIo('/tmp'), ask: (q: string) => (questions.push(q), Promise.resolve(answers.shift() ?? null)) };
    const detached = follow('ask', io);
    process.emit('SIGINT');
    await new Promise((r) => setImmediate(r));
    expect(detached).toEqual(['detach']);
    stop!();

    const cancelled = follow('ask', io);
    process.emit('SIGINT');
    await new Promise((r) => setImmediate(r));
    process.emit('SIGINT');
    expect(cancelled).toEqual(['cancel', 'leave']);
    expect(questions).toEqual(['\n[d]etach (default) / [c]ancel? ', '\n[d]etach (default) / [c]ancel? ']);
  });

  it('a Ctrl-C while the question is open detaches at once', () => {
    const io = { ...memoryIo('/tmp'), ask: () => new Promise<string | null>(() => undefined) };
    const done = follow('ask', io);
    process.emit('SIGINT');
    process.emit('SIGINT');
    expect(done).toEqual(['detach']);
  });

  it('--on-interrupt cancel cancels without asking; a second Ctrl-C leaves', () => {
    const io = { ...memoryIo('/tmp'), ask: () => Promise.reject(new Error('must not ask')) };
    const done = follow('cancel', io);
    process.emit('SIGINT');
    process.emit('SIGINT');
    expect(done).toEqual(['cancel', 'leave']);
  });
});

describe('interruptChoice', () => {
  it('cancels only on c or cancel; anything else (Enter, d, Ctrl-C) detaches', () => {
    expect(['c', ' C ', 'cancel'].map(interruptChoice)).toEqual(['cancel', 'cancel', 'cancel']);
    expect(['', 'd', 'detach', 'x', null].map(interruptChoice)).toEqual(['detach', 'detach', 'detach', 'detach', 'detach']);
  });
});
