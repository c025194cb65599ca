import { describe, expect, it } from 'vitest';
import { hasIsolatedWhitespaceChanges } from '../../../src/editprediction/metrics/isolatedWhitespace.js';

const addedBlank = '@@ -1,3 +1,4 @@\n fn main() {\n+\n     println!("hello");\n }\n';

describe('hasIsolatedWhitespaceChanges', () => {
  it('flags a blank line added or deleted on its own', () => {
    expect(hasIsolatedWhitespaceChanges(addedBlank, undefined)).toBe(true);
    expect(hasIsolatedWhitespaceChanges('@@ -1,4 +1,3 @@\n fn main() {\n-\n     println!("hello");\n }\n', undefined)).toBe(true);
  });

  it('does not flag a blank line next to a real change, or a patch without blank changes', () => {
    expect(hasIsolatedWhitespaceChanges('@@ -1,3 +1,4 @@\n fn main() {\n+\n+    let x = 1;\n     println!("hello");\n }\n', undefined)).toBe(false);
    expect(hasIsolatedWhitespaceChanges('@@ -1,3 +1,3 @@\n fn main() {\n-    a();\n+    b();\n }\n', undefined)).toBe(false);
    expect(hasIsolatedWhitespaceChanges('', undefined)).toBe(false);
  });

  it('flags a mixed patch when one group is whitespace only', () => {
    const patch = '@@ -1,7 +1,8 @@\n fn main() {\n+\n     let x = 1;\n-    let y = 2;\n+    let y = 3;\n\n+\n     println!("hello");\n }\n';
    expect(hasIsolatedWhitespaceChanges(patch, undefined)).toBe(true);
  });

  it('exempts a blank line added on the cursor row (0-based), not a deleted one', () => {
    expect(hasIsolatedWhitespaceChanges(addedBlank, 1)).toBe(false);
    expect(hasIsolatedWhitespaceChanges(addedBlank, 0)).toBe(true);
    expect(hasIsolatedWhitespaceChanges('@@ -1,4 +1,3 @@\n fn main() {\n-\n     println!("hello");\n }\n', 1)).toBe(true);
  });
});

describe('hasIsolatedWhitespaceChanges on CRLF patches', () => {
  it('flags the CRLF twin of a patch exactly when it flags the LF twin', () => {
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    const patches = [
      addedBlank,
      '@@ -1,4 +1,3 @@\n fn main() {\n-\n     println!("hello");\n }\n',
      '@@ -1,3 +1,4 @@\n fn main() {\n+\n+    let x = 1;\n     println!("hello");\n }\n',
      '@@ -1,3 +1,3 @@\n fn main() {\n-    a();\n+    b();\n }\n',
    ];
    for (const patch of patches) {
      for (const row of [undefined, 0, 1]) expect(hasIsolatedWhitespaceChanges(crlf(patch), row), `${row} ${patch}`).toBe(hasIsolatedWhitespaceChanges(patch, row));
    }
    expect(hasIsolatedWhitespaceChanges(crlf(addedBlank), undefined)).toBe(true);
  });
});
