import { describe, expect, it } from 'vitest';
import { countPatchTokenChanges } from '../../../src/editprediction/metrics/tokenChanges.js';

describe('countPatchTokenChanges', () => {
  it('counts only the tokens that changed inside a modified line', () => {
    expect(countPatchTokenChanges('@@ -1,3 +1,3 @@\n fn main() {\n-    println!("hello");\n+    println!("world");\n }\n')).toEqual({ insertedTokens: 1, deletedTokens: 1 });
  });

  it('counts each block of changed lines separately across hunks', () => {
    const patch = '@@ -1,3 +1,3 @@\n fn main() {\n-    let x = 1;\n+    let x = 2;\n }\n@@ -10,3 +10,3 @@\n fn other() {\n-    let y = 3;\n+    let y = 4;\n }\n';
    expect(countPatchTokenChanges(patch)).toEqual({ insertedTokens: 2, deletedTokens: 2 });
  });

  it('counts whole added or deleted lines, and nothing for an empty patch', () => {
    // "    println!("hello");" → "    ", "println", "!", "(", "\"", "hello", "\"", ")", ";" = 9 tokens.
    expect(countPatchTokenChanges('@@ -1,2 +1,3 @@\n fn main() {\n+    println!("hello");\n }\n')).toEqual({ insertedTokens: 9, deletedTokens: 0 });
    expect(countPatchTokenChanges('')).toEqual({ insertedTokens: 0, deletedTokens: 0 });
  });
});

describe('countPatchTokenChanges on CRLF patches', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');

  it('counts the CRLF twin of a patch as its LF twin', () => {
    for (const patch of [
      '@@ -1,3 +1,3 @@\n fn main() {\n-    println!("hello");\n+    println!("world");\n }\n',
      '@@ -1,2 +1,3 @@\n fn main() {\n+    println!("hello");\n+    x();\n }\n',
      '@@ -1,3 +1,3 @@\n fn main() {\n-    let x = 1;\n-    let y = 2;\n+    let x = 2;\n }\n',
    ]) {
      expect(countPatchTokenChanges(crlf(patch)), patch).toEqual(countPatchTokenChanges(patch));
    }
  });

  it('counts a changed line end inside a run, not the one ending the run', () => {
    // Old "a\r\nb" → tokens a, "\r\n", b; new "a\nb" → a, "\n", b: one token each way. The
    // run's last line end (b's CRLF → LF) is left out, as an LF run's last LF always was.
    expect(countPatchTokenChanges('@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n')).toEqual({ insertedTokens: 1, deletedTokens: 1 });
    expect(countPatchTokenChanges('@@ -1 +1 @@\n-b\r\n+b\n')).toEqual({ insertedTokens: 0, deletedTokens: 0 });
  });
});
