/**
 * Model-written text (judge summaries, reasoning, suggestions, evidence) put into the Markdown
 * evalflow writes. Markdown passes raw HTML through, so `<img src=x onerror=…>` in a judge's
 * summary would run wherever the file is rendered; as `&lt;` it shows as the same text and
 * never becomes a tag (in every renderer, CommonMark or not). Pure: workflows use it too.
 */
export function inertMarkdown(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
