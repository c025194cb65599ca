import { existsSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/**
 * Host loopback ports (the model server), and remote endpoints on an allow-list, made
 * reachable from inside a network namespace through path-based Unix sockets, which are not
 * network-namespaced: on the host, one socket per target relays to it; inside, a small relay
 * listens on a loopback address and port and connects to that socket. Nothing else of the
 * host's network is reachable.
 */
export interface RelayTarget {
  /** Where the inside listens: 127.0.0.1 for a host loopback port, another 127.x address for a remote host. */
  inside: { address: string; port: number };
  /** Where the host side connects. */
  upstream: { host: string; port: number };
}

export interface PortRelay {
  /** `address:port=socket` pairs for the inside relay. */
  pairs: string[];
  close(): Promise<void>;
}

/** SOCK_STREAM, which only MIPS numbers otherwise; the other socket constants are the same on every Linux. */
const SOCK_STREAM = process.arch.startsWith('mips') ? 2 : 1;

/**
 * Inside the namespace, in Perl (perl-base is on every Debian and Ubuntu host) with no module
 * at all: Perl starts in a few ms, and `use Socket` alone cost it more than the rest (its
 * constants are written out instead: PF_INET 2, PF_UNIX 1). Arguments: the pid to watch (the
 * shell, which the command takes over by exec), then `address:port=socket` pairs. It listens
 * on every port, then goes to the background, so the script goes on to the command only once
 * each port listens, with no polling. One process per connection; all
 * end within half a second of the command they serve, even without a PID namespace to end them.
 */
const INSIDE_PERL = `my ($watch, @pairs) = @ARGV; my @listen;
for my $pair (@pairs) {
  my ($addr, $port, $path) = $pair =~ /^(\\d+\\.\\d+\\.\\d+\\.\\d+):(\\d+)=(.*)$/s or die "evalflow relay: bad pair $pair\\n";
  socket(my $s, 2, ${SOCK_STREAM}, 0) or die "evalflow relay: socket: $!\\n";
  bind($s, pack('S n C4 x8', 2, $port, split(/\\./, $addr))) && listen($s, 128) or die "evalflow relay: listen on $addr:$port: $!\\n";
  push @listen, [$s, $path];
}
exit 0 if fork;
open STDIN, '<', '/dev/null'; open STDOUT, '>', '/dev/null'; open STDERR, '>', '/dev/null'; $SIG{CHLD} = 'IGNORE';
sub waiting { my ($set) = @_; while (1) { my $n = select(my $r = $set, undef, undef, 0.5); exit 0 unless kill 0, $watch; return $r if $n > 0 } }
my $all = ''; vec($all, fileno($_->[0]), 1) = 1 for @listen;
while (1) {
  my $ready = waiting($all);
  for my $l (@listen) {
    next unless vec($ready, fileno($l->[0]), 1);
    accept(my $c, $l->[0]) or next;
    my $pid = fork;
    if (defined $pid && $pid == 0) { close $_->[0] for @listen; pump($c, $l->[1]); exit 0 }
    close $c;
  }
}
sub pump {
  my ($c, $path) = @_;
  socket(my $u, 1, ${SOCK_STREAM}, 0) or return;
  connect($u, pack('S Z*', 1, $path)) or return;
  my %to = (fileno($c) => $u, fileno($u) => $c); my $open = ''; vec($open, fileno($_), 1) = 1 for $c, $u;
  while ($open =~ /[^\\0]/) {
    my $ready = waiting($open);
    for my $from ($c, $u) {
      next unless vec($ready, fileno($from), 1);
      my $got = sysread($from, my $buf, 65536);
      return unless defined $got;
      if ($got == 0) { shutdown($to{fileno($from)}, 1); vec($open, fileno($from), 1) = 0; next }
      for (my $off = 0; $off < $got; ) { my $w = syswrite($to{fileno($from)}, $buf, $got - $off, $off); return unless defined $w; $off += $w }
    }
  }
}`;

/** Perl where Debian puts it; a host without it runs the Node relay instead. */
const PERL = ['/usr/bin/perl', '/bin/perl'].find((path) => existsSync(path)) ?? null;

/**
 * Inside the namespace, without Perl: listen on each port, relay to its socket, then write one
 * byte, which the script waits for: readiness without polling. It ends once `watch` (the shell
 * that execs the command) is gone.
 */
const INSIDE_NODE = `const net=require('net'),fs=require('fs');const [watch,...pairs]=process.argv.slice(1);let up=0;
setInterval(()=>{try{process.kill(Number(watch),0)}catch{process.exit(0)}},500).unref();
for(const pair of pairs){const i=pair.indexOf('='),at=pair.lastIndexOf(':',i);const addr=pair.slice(0,at),port=Number(pair.slice(at+1,i)),sock=pair.slice(i+1);
net.createServer((c)=>{const u=net.connect(sock);c.pipe(u).pipe(c);c.on('error',()=>u.destroy());u.on('error',()=>c.destroy());})
.listen(port,addr,()=>{if(++up===pairs.length)fs.writeSync(1,'1');});}`;

/** Host loopback ports, as relay targets. */
export function loopbackTargets(ports: number[]): RelayTarget[] {
  return ports.map((port) => ({ inside: { address: '127.0.0.1', port }, upstream: { host: '127.0.0.1', port } }));
}

/** Opens one host-side socket per target in `dir` (a folder of the process's own). */
export async function openPortRelay(dir: string, targets: RelayTarget[]): Promise<PortRelay> {
  const servers: Server[] = [];
  const pairs: string[] = [];
  for (const [n, target] of targets.entries()) {
    const socket = join(dir, `${n}.sock`);
    const server = createServer((client) => {
      const upstream = createConnection(target.upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
    servers.push(server);
    pairs.push(`${target.inside.address}:${target.inside.port}=${socket}`);
  }
  return {
    pairs,
    close: () => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined),
  };
}

/**
 * The shell lines that start the inside relay in the background, listening, before the script
 * goes on to `exec "$@"`: Perl's returns once it listens; Node's says so with a byte. `node` is the Node binary to use without Perl (`perl` null).
 */
export function insideRelayScript(node: string, relay: PortRelay, perl: string | null = PERL): string[] {
  const pairs = relay.pairs.map(shellQuote).join(' ');
  // The candidate's own Perl settings are not the relay's (an empty PERL_UNICODE would turn Unicode layers on: 0 is none).
  if (perl) return [`PERL5LIB= PERL5OPT= PERL_UNICODE=0 ${shellQuote(perl)} -e ${shellQuote(INSIDE_PERL)} "$$" ${pairs} </dev/null >/dev/null`];
  // Node cannot close its stdout safely (it reopens fd 1 when asked for process.stdout): `head` reads the one byte it writes once it listens.
  return [`evalflow_relay=$({ ${shellQuote(node)} -e ${shellQuote(INSIDE_NODE)} "$$" ${pairs} </dev/null & } | head -c 1)`];
}

/** The command line that starts the inside relay, then runs `command args` once it listens (a shell running insideRelayScript). */
export function relayedCommand(node: string, relay: PortRelay, command: string, args: string[]): { command: string; args: string[] } {
  return { command: '/bin/sh', args: ['-c', [...insideRelayScript(node, relay), 'exec "$@"'].join('\n'), 'evalflow-sandbox', command, ...args] };
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
