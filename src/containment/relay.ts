import { existsSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
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
 * constants are written out instead: PF_INET 2, PF_UNIX 1, MSG_DONTWAIT 0x40, EAGAIN 11).
 * Arguments: the pid to watch (the shell, which the command takes over by exec), then
 * `address:port=socket` pairs. It listens on every port, then goes to the background, so the
 * script goes on to the command only once each port listens, with no polling. One process
 * carries every connection (a select loop; a process forked per connection cost a loaded
 * host about 30 ms a connection), at most 64 KiB waiting per direction, each side's end
 * passed on as a half-close. It ends within half a second of the command it serves, even
 * without a PID namespace to end it.
 */
const INSIDE_PERL = `my ($watch, @pairs) = @ARGV; my @listen;
for my $pair (@pairs) {
  my ($addr, $port, $path) = $pair =~ /^(\\d+\\.\\d+\\.\\d+\\.\\d+):(\\d+)=(.*)$/s or die "evalflow relay: bad pair $pair\\n";
  socket(my $s, 2, ${SOCK_STREAM}, 0) or die "evalflow relay: socket: $!\\n";
  bind($s, pack('S n C4 x8', 2, $port, split(/\\./, $addr))) && listen($s, 128) or die "evalflow relay: listen on $addr:$port: $!\\n";
  push @listen, [$s, $path];
}
exit 0 if fork;
open STDIN, '<', '/dev/null'; open STDOUT, '>', '/dev/null'; open STDERR, '>', '/dev/null'; $SIG{PIPE} = 'IGNORE';
my (%fh, %peer, %out, %eof, %shut);
sub drop { my @pair = ($_[0], $peer{$_[0]}); for my $x (@pair) { next unless defined $x && $fh{$x}; close $fh{$x}; delete $_->{$x} for \\%fh, \\%peer, \\%out, \\%eof, \\%shut } }
sub ended { my ($f) = @_; my $p = $peer{$f}; if (!length $out{$p} && !$shut{$p}) { shutdown($fh{$p}, 1); $shut{$p} = 1 } }
while (1) {
  my ($r, $w) = ('', '');
  vec($r, fileno($_->[0]), 1) = 1 for @listen;
  for my $f (keys %fh) {
    vec($r, $f, 1) = 1 unless $eof{$f} || length $out{$peer{$f}};
    vec($w, $f, 1) = 1 if length $out{$f};
  }
  my $n = select(my $rr = $r, my $ww = $w, undef, 0.5);
  exit 0 unless kill 0, $watch;
  next unless $n > 0;
  for my $l (@listen) {
    next unless vec($rr, fileno($l->[0]), 1);
    accept(my $c, $l->[0]) or next;
    my $u;
    socket($u, 1, ${SOCK_STREAM}, 0) && connect($u, pack('S Z*', 1, $l->[1])) or next;
    my ($cf, $uf) = (fileno($c), fileno($u));
    @fh{$cf, $uf} = ($c, $u); @peer{$cf, $uf} = ($uf, $cf); @out{$cf, $uf} = ('', '');
  }
  for my $f (keys %fh) {
    next unless $fh{$f};
    if (vec($ww, $f, 1) && length $out{$f}) {
      my $sent = send($fh{$f}, $out{$f}, 0x40);
      if (!defined $sent) { drop($f) unless $! + 0 == 11; next }
      substr($out{$f}, 0, $sent) = '';
      ended($peer{$f}) if $eof{$peer{$f}};
    }
    if ($fh{$f} && vec($rr, $f, 1)) {
      my $got = sysread($fh{$f}, my $buf, 65536);
      if (!$got) { if (defined $got) { $eof{$f} = 1; ended($f) } else { drop($f); next } }
      else { $out{$peer{$f}} .= $buf }
    }
    drop($f) if $fh{$f} && $eof{$f} && $eof{$peer{$f}} && !length $out{$f} && !length $out{$peer{$f}};
  }
}`;

/** Perl where Debian puts it; a host without it runs the Node relay instead. */
const PERL = ['/usr/bin/perl', '/bin/perl'].find((path) => existsSync(path)) ?? null;

/**
 * Inside the namespace, without Perl: listen on each port, relay to its socket, then write one
 * byte, which the script waits for: readiness without polling. Each side's end is passed on
 * as a half-close, as the host side does. It ends once `watch` (the shell that execs the
 * command) is gone.
 */
const INSIDE_NODE = `const net=require('net'),fs=require('fs');const [watch,...pairs]=process.argv.slice(1);let up=0;
setInterval(()=>{try{process.kill(Number(watch),0)}catch{process.exit(0)}},500).unref();
for(const pair of pairs){const i=pair.indexOf('='),at=pair.lastIndexOf(':',i);const addr=pair.slice(0,at),port=Number(pair.slice(at+1,i)),sock=pair.slice(i+1);
net.createServer({allowHalfOpen:true},(c)=>{const u=net.connect({path:sock,allowHalfOpen:true});c.pipe(u).pipe(c);c.on('error',()=>u.destroy());u.on('error',()=>c.destroy());})
.listen(port,addr,()=>{if(++up===pairs.length)fs.writeSync(1,'1');});}`;

/** Host loopback ports, as relay targets. */
export function loopbackTargets(ports: number[]): RelayTarget[] {
  return ports.map((port) => ({ inside: { address: '127.0.0.1', port }, upstream: { host: '127.0.0.1', port } }));
}

/** Opens one host-side socket per target in `dir` (a folder of the process's own). */
export async function openPortRelay(dir: string, targets: RelayTarget[]): Promise<PortRelay> {
  const servers: Server[] = [];
  const pairs: string[] = [];
  // Every socket still open, so closing the relay ends them (a server that never closes a half-closed connection would hold it, and server.close with it).
  const open = new Set<Socket>();
  for (const [n, target] of targets.entries()) {
    const socket = join(dir, `${n}.sock`);
    const server = createServer({ allowHalfOpen: true }, (client) => carry(client, createConnection({ ...target.upstream, allowHalfOpen: true }), open));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
    servers.push(server);
    pairs.push(`${target.inside.address}:${target.inside.port}=${socket}`);
  }
  return {
    pairs,
    close: () => {
      const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      for (const socket of open) socket.destroy();
      return closed.then(() => undefined);
    },
  };
}

/**
 * Carries one connection both ways, each side's end passed on as a half-close (both sockets
 * allow half-open: Node would otherwise end its own writing on the first end it reads and
 * lose the other direction). Each socket closes itself once it ended both ways; an error on
 * either (a reset) tears both down, and so does closing the relay (its command ended).
 */
function carry(a: Socket, b: Socket, open: Set<Socket>): void {
  for (const socket of [a, b]) {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  }
  a.pipe(b).pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
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
export function relayedCommand(node: string, relay: PortRelay, command: string, args: string[], perl: string | null = PERL): { command: string; args: string[] } {
  return { command: '/bin/sh', args: ['-c', [...insideRelayScript(node, relay, perl), 'exec "$@"'].join('\n'), 'evalflow-sandbox', command, ...args] };
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
