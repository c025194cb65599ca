import type { CommandIo } from '../io.js';

/** What the first Ctrl-C does to a followed batch: ask (on a terminal; else detach), detach, or cancel. */
export const INTERRUPT_MODES = ['ask', 'detach', 'cancel'] as const;
export type InterruptMode = (typeof INTERRUPT_MODES)[number];

export interface InterruptActions {
  /** Stop following; the batch goes on in Temporal. */
  detach(): void;
  /** Cancel the batch and keep following until its runs recorded themselves. */
  cancel(): void;
  /** A second Ctrl-C while cancelling: leave at once. */
  leave(): void;
}

/**
 * Handles SIGINT while a batch is followed. The first one asks (or takes the mode's choice);
 * a Ctrl-C at the prompt detaches, and one after choosing cancel leaves at once. Returns
 * the function that removes the handler.
 */
export function handleInterrupts(mode: InterruptMode, io: CommandIo, actions: InterruptActions): () => void {
  let state: 'following' | 'asking' | 'detached' | 'cancelling' = 'following';
  const choose = (choice: 'detach' | 'cancel') => {
    if (state === 'detached' || state === 'cancelling') return;
    state = choice === 'detach' ? 'detached' : 'cancelling';
    if (choice === 'detach') actions.detach();
    else actions.cancel();
  };
  const onSigint = () => {
    if (state === 'cancelling') return actions.leave();
    if (state === 'asking') return choose('detach');
    if (state === 'detached') return;
    if (mode !== 'ask') return choose(mode);
    if (!io.ask) return choose('detach');
    state = 'asking';
    void io.ask('\n[d]etach (default) / [c]ancel? ').then((answer) => choose(interruptChoice(answer)));
  };
  process.on('SIGINT', onSigint);
  return () => {
    process.off('SIGINT', onSigint);
  };
}

/** The answer at the prompt: `c` or `cancel` cancels; Enter, `d`, anything else (or Ctrl-C) detaches. */
export function interruptChoice(answer: string | null): 'detach' | 'cancel' {
  const word = answer?.trim().toLowerCase() ?? '';
  return word === 'c' || word === 'cancel' ? 'cancel' : 'detach';
}
