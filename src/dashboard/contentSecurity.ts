import { createHash } from 'node:crypto';

/**
 * Content-Security-Policy for evalflow's pages. Their scripts are inline and fixed, so each is
 * allowed by its SHA-256 and nothing else runs: markup that slipped into model-written text
 * (`<img onerror=…>`, `<script>`) stays inert even if some escaping were missed.
 */

/** Inline executable scripts (not `type="application/json"` data blocks), as the browser hashes them. */
const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi;

export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)]
    .filter((match) => !/type\s*=\s*["']?application\/json/i.test(match[1] ?? ''))
    .map((match) => `'sha256-${createHash('sha256').update(match[2]!, 'utf8').digest('base64')}'`);
}

/**
 * The policy of a page: its own scripts only, inline styles (the pages style elements from
 * script), data: images, and with `served` (the viewer) fetches to its own origin and no framing.
 */
export function contentSecurityPolicy(html: string, { served }: { served: boolean }): string {
  const hashes = inlineScriptHashes(html);
  return [
    "default-src 'none'",
    `script-src ${hashes.length > 0 ? hashes.join(' ') : "'none'"}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    ...(served ? ["connect-src 'self'", "frame-ancestors 'none'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
