import type { Task } from './schema.js';
import { bodyText, splitSections } from './splitSections.js';
import type { Section, SectionSpec, SourceLine } from './splitSections.js';

export const TASK_SECTIONS = [
  { key: 'prompt', headings: ['Prompt', '题面'] },
  { key: 'scenario', headings: ['Scenario', '场景背景'] },
  { key: 'guidance', headings: ['Guidance', '考官指引'] },
] as const satisfies readonly SectionSpec<keyof Task>[];

/**
 * Parse task.md. The Prompt section must hold one `>` blockquote: Turn 1, forwarded to the
 * candidate verbatim (without the `> ` prefixes). Text around the blockquote is for authors.
 * Scenario and Guidance are what the examiner works from, so they may not be empty.
 */
export function parseTask(text: string, file: string): { task?: Task; problems: string[] } {
  const { sections, problems } = splitSections(text, file, TASK_SECTIONS);
  const prompt = sections.prompt ? promptOf(sections.prompt, file, problems) : undefined;
  const scenario = sections.scenario ? nonEmptyBody(sections.scenario, file, 'Scenario', problems) : undefined;
  const guidance = sections.guidance ? nonEmptyBody(sections.guidance, file, 'Guidance', problems) : undefined;
  if (problems.length > 0 || prompt === undefined || scenario === undefined || guidance === undefined) return { problems };
  return { task: { prompt, scenario, guidance }, problems };
}

function promptOf(section: Section, file: string, problems: string[]): string | undefined {
  const quotes = blockquotes(section.body);
  const [first, ...more] = quotes;
  if (!first) {
    problems.push(`${file}:${section.line}: Prompt: expected a ">" blockquote holding the Turn 1 message, found none`);
    return undefined;
  }
  if (more.length > 0) {
    const lines = quotes.map((quote) => quote[0]?.line).join(', ');
    problems.push(
      `${file}:${more[0]?.[0]?.line}: Prompt: expected one blockquote, found ${quotes.length} (lines ${lines}); ` +
        'join them with ">" lines to keep one Turn 1 message',
    );
    return undefined;
  }
  const prompt = bodyText(first.map((quoteLine) => ({ ...quoteLine, text: quoteLine.text.replace(/^ {0,3}> ?/, '') })));
  if (prompt === '') {
    problems.push(`${file}:${first[0]?.line}: Prompt: the blockquote is empty; expected the Turn 1 message`);
    return undefined;
  }
  return prompt;
}

/** Runs of consecutive `>` lines. */
function blockquotes(body: readonly SourceLine[]): SourceLine[][] {
  const runs: SourceLine[][] = [];
  let run: SourceLine[] | undefined;
  for (const line of body) {
    if (/^ {0,3}>/.test(line.text)) {
      if (!run) runs.push((run = []));
      run.push(line);
    } else {
      run = undefined;
    }
  }
  return runs;
}

function nonEmptyBody(section: Section, file: string, name: string, problems: string[]): string | undefined {
  const body = bodyText(section.body);
  if (body === '') problems.push(`${file}:${section.line}: ${name}: the section is empty; expected text for the examiner`);
  return body === '' ? undefined : body;
}
