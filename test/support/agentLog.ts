/**
 * The agent log of the host tests (`CrashFixture.agentLog`): each turn of the fixture's agent
 * writes `start <run> <turn> <sandbox>` and `end <run> <turn>`, so which host ran what, and how
 * many at once, is read back from it.
 */

/**
 * The agent's turn script: it logs its start (its working folder names the host's sandboxes)
 * and end around `seconds` of work. With `overlaps`, it also logs `overlap <run>.<turn>` when an
 * earlier attempt of the same turn is still alive as it starts.
 */
export function loggedAgentTurn(seconds: number, options: { overlaps?: boolean } = {}): string[] {
  return [
    ...(options.overlaps
      ? [
          'key="$EVALFLOW_RUN_ID.$EVALFLOW_TURN"',
          'if [ -f "$log/$key.pid" ] && kill -0 "$(cat "$log/$key.pid")" 2>/dev/null; then echo "overlap $key" >> "$log/agent.log"; fi',
          'echo $$ > "$log/$key.pid"',
        ]
      : []),
    'echo "start $EVALFLOW_RUN_ID $EVALFLOW_TURN $(pwd)" >> "$log/agent.log"',
    `sleep ${seconds}`,
    'echo "turn $EVALFLOW_TURN" >> progress.txt',
    'echo "end $EVALFLOW_RUN_ID $EVALFLOW_TURN" >> "$log/agent.log"',
    'echo "did turn $EVALFLOW_TURN"',
  ];
}

/** The log's `start` lines of turns run in a host's sandboxes. */
export function turnStarts(log: readonly string[], host: string): string[] {
  return log.filter((l) => l.startsWith('start ') && l.includes(`sandboxes-${host}`));
}

/** The most runs of the log's start…end spans that were open at once on a host. */
export function mostAtOnce(log: readonly string[], host: string): number {
  const open = new Set<string>();
  let most = 0;
  for (const line of log) {
    const [what, runId] = line.split(' ');
    if (what === 'start' && line.includes(`sandboxes-${host}`)) open.add(runId!);
    if (what === 'end') open.delete(runId!);
    most = Math.max(most, open.size);
  }
  return most;
}

/** Polls `what` every 100 ms for up to `ms`; its last answer. */
export async function until(what: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return what();
}
