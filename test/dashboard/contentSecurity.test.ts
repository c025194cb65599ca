import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineScriptHashes } from '../../src/dashboard/contentSecurity.js';

describe('the pages\' Content-Security-Policy', () => {
  it('hashes each inline script, not JSON data blocks, and allows nothing inline beyond them', () => {
    const html = '<script type="application/json" id="d">{"a":1}</script><script>\nrun();\n</script><script async>go()</script>';
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(inlineScriptHashes(html)).toEqual([hash('\nrun();\n'), hash('go()')]);
    const csp = contentSecurityPolicy(html, { served: false });
    expect(csp).toBe(`default-src 'none'; script-src ${hash('\nrun();\n')} ${hash('go()')}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`);
    expect(contentSecurityPolicy('<p>no script</p>', { served: true })).toContain("script-src 'none'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; frame-ancestors 'none'");
  });
});
