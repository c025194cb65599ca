import { existsSync } from 'node:fs';

/**
 * Runs a stage's checks one after another inside one sandbox, each as if in a sandbox of its
 * own: bubblewrap starts it as the sandbox's PID 1 (`--as-pid-1`), so no check can signal or
 * stop it (the kernel ignores signals from inside a namespace to its init), and it makes itself
 * non-dumpable first, so no check can read or write its memory or descriptors through /proc
 * or ptrace (it reports on its own stdout, which no check holds). Each check is `bash -c` with
 * a pipe of its own as stdout and stderr and its own timeout; once it ended, every other
 * process of the sandbox is killed (`kill -1` from PID 1) and reaped, and /tmp and /dev/shm
 * are emptied (their own files only, never what is mounted in them), before the next check
 * starts: nothing a check started, nor a file it left there, is beside the next one. Perl from `perl-base` (on every Debian and Ubuntu host),
 * loading no module.
 *
 * Protocol, on stdout, per check in order: `<index> <exit code, or - when killed or timed out>
 * <1 when timed out, else 0> <bytes>\n` followed by that many bytes of output (its last 128 KiB).
 */
const SCRIPT = String.raw`
my ($prctl, $timeout_ms, @checks) = @ARGV;
syscall($prctl, 4, 0, 0, 0, 0) == 0 or die "evalflow check runner: cannot make itself unreadable (prctl: $!)\n";
$SIG{CHLD} = sub {};
binmode STDOUT;
$| = 1;
for my $i (0 .. $#checks) {
  pipe(my $r, my $w) or die "evalflow check runner: pipe: $!\n";
  my $pid = fork() // die "evalflow check runner: fork: $!\n";
  if ($pid == 0) {
    close $r;
    open(STDOUT, '>&', $w) && open(STDERR, '>&', $w) or exit 126;
    close $w;
    exec('bash', '-c', $checks[$i]) or exit 127;
  }
  close $w;
  my ($out, $status, $timed, $open, $left) = ('', 0, 0, 1, $timeout_ms / 1000);
  my $rin = '';
  vec($rin, fileno($r), 1) = 1;
  while (1) {
    if (waitpid($pid, 1) == $pid) { $status = $?; last }
    if ($left <= 0) { $timed = 1; kill('KILL', -1); waitpid($pid, 0); last }
    my $slice = $open ? ($left < 0.5 ? $left : 0.5) : ($left < 0.002 ? $left : 0.002);
    my ($n, $rest) = select($open ? (my $rout = $rin) : undef, undef, undef, $slice);
    $left -= $slice - (defined $rest && $rest >= 0 ? $rest : 0);
    next unless $open && $n > 0;
    $open = keep($r, \$out);
  }
  kill('KILL', -1);
  while ($open) { $open = keep($r, \$out) }
  close $r;
  1 while waitpid(-1, 0) > 0;
  empty($_) for '/tmp', '/dev/shm';
  my $code = $timed || ($status & 127) ? '-' : $status >> 8;
  print "$i $code $timed " . length($out) . "\n" . $out;
}
sub keep {
  my ($r, $out) = @_;
  my $got = sysread($r, my $chunk, 65536);
  return 0 unless $got;
  $$out .= $chunk;
  $$out = substr($$out, -131072) if length($$out) > 262144;
  return 1;
}
sub empty {
  my ($dir, $dev) = @_;
  $dev //= (lstat $dir)[0] // return;
  opendir(my $d, $dir) or return;
  my @names = grep { $_ ne '.' && $_ ne '..' } readdir($d);
  closedir $d;
  for my $name (@names) {
    my $path = "$dir/$name";
    my @stat = lstat $path or next;
    # What is mounted there (the run's clone or HOME when they live under /tmp) is not the tmpfs's to empty.
    next if $stat[0] != $dev;
    if (-d _) { chmod(0700, $path); empty($path, $dev); rmdir $path } else { unlink $path }
  }
}
`;

/** prctl's system call number, where the runner knows it. */
const PRCTL: Partial<Record<NodeJS.Architecture, number>> = { x64: 157, arm64: 167 };

const PERL = ['/usr/bin/perl', '/bin/perl'].find((path) => existsSync(path));

/** The runner's command line for `checks`, each given `timeoutMs`; undefined on a host where it cannot run (no Perl, another architecture). */
export function checkRunnerCommand(checks: string[], timeoutMs: number): { command: string; args: string[] } | undefined {
  const prctl = PRCTL[process.arch];
  if (!PERL || prctl === undefined || process.platform !== 'linux') return undefined;
  return { command: PERL, args: ['-e', SCRIPT, String(prctl), String(timeoutMs), ...checks] };
}

/** One check's report from the runner. */
export interface CheckReport {
  index: number;
  exitCode: number | null;
  timedOut: boolean;
  output: Buffer;
}

/** Reads the runner's reports as its stdout arrives: `push` each chunk, get the reports completed by it. */
export function createReportReader(): { push(chunk: Buffer): CheckReport[] } {
  let pending = Buffer.alloc(0);
  return {
    push(chunk) {
      pending = Buffer.concat([pending, chunk]);
      const reports: CheckReport[] = [];
      for (;;) {
        const newline = pending.indexOf(10);
        if (newline < 0) break;
        const header = /^(\d+) (\d+|-) ([01]) (\d+)$/.exec(pending.subarray(0, newline).toString('latin1'));
        if (!header) throw new Error(`evalflow check runner: unreadable report header: ${pending.subarray(0, Math.min(newline, 80)).toString('utf8')}`);
        const size = Number(header[4]);
        if (pending.length < newline + 1 + size) break;
        reports.push({ index: Number(header[1]), exitCode: header[2] === '-' ? null : Number(header[2]), timedOut: header[3] === '1', output: pending.subarray(newline + 1, newline + 1 + size) });
        pending = pending.subarray(newline + 1 + size);
      }
      return reports;
    },
  };
}
