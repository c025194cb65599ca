/**
 * What a contained process sees of the host: the system read-only, `hidden` emptied (a folder
 * becomes an empty tmpfs, a file /dev/null), then `readable` bound read-only and `writable`
 * bound read-write at their own paths over what was hidden; its /tmp is a tmpfs of its own.
 */
export interface SandboxView {
  /** The run's clone and private HOME: the only host folders it may change. */
  writable: string[];
  /** What it may read inside hidden places: the case's history, the agent's install, the case folder for checks. */
  readable: string[];
  /** Every place of the host it must not see, wherever it lives. */
  hidden: string[];
  /** `loopback`: its own network namespace (only relayed ports reach out); `host`: the host's network (setup that installs dependencies). */
  network: 'loopback' | 'host';
  /** With `loopback`: remote endpoints reachable by name (`api.example.com:443`), exactly these; nothing else leaves. */
  allow?: Endpoint[];
}

export interface Endpoint {
  host: string;
  port: number;
}
