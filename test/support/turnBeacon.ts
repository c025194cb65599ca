import type { MockServer } from '../../src/llm/mock/server.js';

/**
 * How a scripted `command` candidate tells the test that a turn started, contained or not:
 * one request to the mock model, the one host port relayed into its sandbox (the candidate
 * needs `base_url` on the mock for that). Bash's /dev/tcp sends it, so no HTTP client need be
 * installed; the mock records it before it answers, and the script waits for that answer.
 */
export function turnBeaconLines(mock: MockServer, model: string): string[] {
  const { hostname, port } = new URL(mock.origin);
  return [
    `body="{\\"model\\":\\"${model}\\",\\"messages\\":[{\\"role\\":\\"user\\",\\"content\\":\\"turn $EVALFLOW_TURN\\"}]}"`,
    `exec 3<>/dev/tcp/${hostname}/${port}`,
    `printf 'POST /v1/chat/completions HTTP/1.0\\r\\nHost: ${hostname}\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\n\\r\\n%s' "\${#body}" "$body" >&3`,
    'cat <&3 >/dev/null',
    'exec 3<&-',
  ];
}

/** The turns the candidates announced so far, in order (`turn 1`, `turn 2`, …). */
export function beaconTurns(mock: MockServer, model: string): string[] {
  return mock.requests.filter((request) => request.model === model).map((request) => request.messages[0]?.content ?? '');
}
