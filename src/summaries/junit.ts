import type { RunWithVerdict } from '../store/index.js';
import { describeChangedOnly, type ChangedOnly } from '../vocabulary/changedOnly.js';
import type { GateCheck } from './batchGate.js';

/**
 * A JUnit XML report of a batch, one testcase per run (classname the case, name the run id):
 * a `fail` is a failure with the judge's summary, an `aborted` run is skipped with its reason,
 * `infra_error` / `judge_failed` / `needs_review` / `cancelled` are errors (ours, not the
 * candidate's), and `pass` passes. CI systems read it as they read any test report. A batch with
 * arms has one suite per arm (`BATCH:ARM`) and each run's classname says its arm (`ARM.CASE`):
 * the arms are never one pool. With a gate, a last suite `gate` holds one testcase per check,
 * classname `gate.ARM` (or `gate` for a batch without arms). A batch of `--changed-only` says so
 * in the suite's properties, with each case it skipped and why.
 */
export function renderJunit(batchId: string, entries: readonly RunWithVerdict[], scope: ChangedOnly | null = null, options: { arms?: readonly string[]; gate?: readonly GateCheck[] } = {}): string {
  const suites = options.arms?.length
    ? options.arms.map((arm) => runSuite(`${batchId}:${arm}`, entries.filter((e) => e.run.arm === arm), `${arm}.`, scope))
    : [runSuite(batchId, entries, '', scope)];
  if (options.gate) suites.push(gateSuite(options.gate));
  const total = (key: keyof Suite) => suites.reduce((sum, s) => sum + (s[key] as number), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="evalflow" tests="${total('tests')}" failures="${total('failures')}" errors="${total('errors')}" skipped="${total('skipped')}">`,
    ...suites.flatMap((s) => s.lines),
    '</testsuites>',
    '',
  ].join('\n');
}

interface Suite {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  lines: string[];
}

function runSuite(name: string, entries: readonly RunWithVerdict[], classPrefix: string, scope: ChangedOnly | null): Suite {
  const ordered = [...entries].sort((a, b) => a.run.run_id.localeCompare(b.run.run_id, 'en', { numeric: true }));
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  const cases = ordered.map(({ run, verdict }) => {
    const open = `    <testcase classname="${xml(classPrefix + run.case_id)}" name="${xml(run.run_id)}" time="${seconds(run.started_at, run.finished_at)}">`;
    if (run.status === 'completed' && verdict?.result === 'pass') return `${open}</testcase>`;
    if (run.status === 'completed' && verdict?.result === 'fail') {
      failures += 1;
      return `${open}\n      <failure message="${xml(firstLine(verdict.summary) || 'the judge said fail')}" type="fail">${xml(verdict.summary)}</failure>\n    </testcase>`;
    }
    if (run.status === 'aborted') {
      skipped += 1;
      return `${open}\n      <skipped message="${xml(firstLine(run.error ?? 'aborted'))}"/>\n    </testcase>`;
    }
    errors += 1;
    const why = run.error ?? (run.status === 'needs_review' ? `the verdict needs a person's review: evalflow review ${run.run_id} --result pass|fail --note "why"` : run.status);
    return `${open}\n      <error message="${xml(firstLine(why))}" type="${xml(run.status)}">${xml(why)}</error>\n    </testcase>`;
  });
  const lines = [
    `  <testsuite name="${xml(name)}" tests="${ordered.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    ...(scope
      ? [
          '    <properties>',
          `      <property name="evalflow.changed_only" value="${xml(describeChangedOnly(scope))}"/>`,
          ...scope.skipped.map((c) => `      <property name="evalflow.changed_only.skipped.${xml(c.case_id)}" value="${xml(c.why)}"/>`),
          '    </properties>',
        ]
      : []),
    ...cases,
    '  </testsuite>',
  ];
  return { tests: ordered.length, failures, errors, skipped, lines };
}

/** The gate's checks as testcases: a check not met is a failure, or an error when the infrastructure failed it. */
function gateSuite(checks: readonly GateCheck[]): Suite {
  const failures = checks.filter((c) => !c.met && !c.infrastructure).length;
  const errors = checks.filter((c) => !c.met && c.infrastructure).length;
  const cases = checks.map((c) => {
    const open = `    <testcase classname="${xml(c.arm === null ? 'gate' : `gate.${c.arm}`)}" name="${xml(c.name)}" time="0">`;
    if (c.met) return `${open}</testcase>`;
    const tag = c.infrastructure ? 'error' : 'failure';
    return `${open}\n      <${tag} message="${xml(`${c.name}: ${c.detail}`)}" type="${c.infrastructure ? 'gate_infrastructure' : 'gate'}">${xml(c.detail)}</${tag}>\n    </testcase>`;
  });
  return { tests: checks.length, failures, errors, skipped: 0, lines: [`  <testsuite name="gate" tests="${checks.length}" failures="${failures}" errors="${errors}" skipped="0">`, ...cases, '  </testsuite>'] };
}

function xml(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the five special ones escaped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function seconds(started: string | null, finished: string | null): string {
  if (!started || !finished) return '0';
  return ((Date.parse(finished) - Date.parse(started)) / 1000).toFixed(3);
}
