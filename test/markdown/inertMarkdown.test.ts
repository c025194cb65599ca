import { describe, expect, it } from 'vitest';
import { renderReview } from '../../src/run/reviewMarkdown.js';
import { inertMarkdown } from '../../src/markdown/inertMarkdown.js';
import { renderBatchInsights } from '../../src/summaries/batchInsights.js';
import type { RunWithVerdict } from '../../src/store/index.js';
import { aScore, someFacts } from '../judge/builders.js';
import { reportMarkdown } from '../../src/schedules/scheduleReport.js';
import { renderWorkflowUsed } from '../../src/workflowUsage/renderWorkflowUsed.js';

const HOSTILE = '<img src=x onerror="alert(1)"> and <script>alert(2)</script>';
const INERT = '&lt;img src=x onerror="alert(1)"&gt; and &lt;script&gt;alert(2)&lt;/script&gt;';

/** Every `<` that opens a tag in the Markdown: none may come from model text. */
const tags = (markdown: string) => markdown.match(/<[a-z/!]/gi) ?? [];

describe('model-written text stays text in the Markdown evalflow writes', () => {
  it('escapes the angle brackets only', () => {
    expect(inertMarkdown(HOSTILE)).toBe(INERT);
    expect(inertMarkdown('a & b, *c* `d`')).toBe('a & b, *c* `d`');
  });

  it('review.md: summary, reasoning, evidence, suggestions and review reasons', () => {
    const score = aScore({
      summary: HOSTILE,
      reasoning: `Because ${HOSTILE}`,
      hard_requirements: [{ item: `Req ${HOSTILE}`, met: false, assessed: true, evidence: HOSTILE }],
      suggestions: [`[eval] ${HOSTILE}`],
      review_reasons: [HOSTILE],
    });
    const review = renderReview({ score, facts: someFacts() });
    expect(tags(review)).toEqual([]);
    expect(review.split(INERT).length - 1).toBeGreaterThanOrEqual(5);
  });

  it('batch-insights.md: each suggestion', () => {
    const score = aScore({ suggestions: [`[workflow] ${HOSTILE}`] });
    const entry = { run: { run_id: score.run_id, run_dir: '/runs/r1', case_id: 'c', isolation: null, spec: null, config: {} }, verdict: score } as unknown as RunWithVerdict;
    const insights = renderBatchInsights('batch-1', [entry], '/summaries');
    expect(insights).toContain(INERT);
    expect(tags(insights)).toEqual([]);
  });

  it("review.md's workflow-used table: the evidence quoted from the transcript", () => {
    const section = renderWorkflowUsed([{ item: 'skills/testing', loaded: true, invoked: true, first_turn: 1, evidence: HOSTILE } as never], null);
    expect(section).toContain(INERT);
    expect(tags(section)).toEqual([]);
  });

  it('a schedule report: the problems (error text may quote a model)', () => {
    const markdown = reportMarkdown({
      schedule: 'nightly',
      batch_id: 'batch-1',
      scheduled_at: '2026-12-01T02:00:00Z',
      workflow_rev: null,
      status: 'failed',
      verdict: 'failed',
      counts: { finished: 0, passed: 0, failed: 0 },
      previous: null,
      baseline: null,
      headline: 'schedule nightly, batch batch-1 FAILED',
      problems: [HOSTILE],
    });
    expect(markdown).toContain(`- problem: ${INERT}`);
    expect(tags(markdown)).toEqual([]);
  });
});
