import { describe, expect, it } from 'vitest';
import { scanMarkdownBlocks } from '../../../src/editprediction/format/markdownBlocks.js';

describe('scanMarkdownBlocks', () => {
  it('recognises ATX headings with closing hashes, paragraphs and fenced blocks', () => {
    expect(scanMarkdownBlocks('# Name ##\n\nsome text\nmore\n\n```rust src/x.rs\nfn a() {}\n```\n')).toEqual([
      { kind: 'heading', level: 1, text: 'Name', line: 1 },
      { kind: 'paragraph', text: 'some textmore', line: 3 },
      { kind: 'fencedCode', info: 'rust src/x.rs', content: 'fn a() {}\n', line: 6 },
    ]);
  });

  it('supports ~~~ fences, longer closing fences, and fences inside fences of another kind', () => {
    const blocks = scanMarkdownBlocks('~~~\n```\ninside\n~~~~\n````diff\n```\n````\n');
    expect(blocks).toEqual([
      { kind: 'fencedCode', info: '', content: '```\ninside\n', line: 1 },
      { kind: 'fencedCode', info: 'diff', content: '```\n', line: 5 },
    ]);
  });

  it('runs an unclosed fence to the end of the document', () => {
    expect(scanMarkdownBlocks('```diff\n-a\n+b\n')).toEqual([{ kind: 'fencedCode', info: 'diff', content: '-a\n+b\n', line: 1 }]);
  });

  it('removes the fence indentation from content lines', () => {
    expect(scanMarkdownBlocks('  ```\n    x\n  y\n  ```\n')).toEqual([{ kind: 'fencedCode', info: '', content: '  x\ny\n', line: 1 }]);
  });

  it('reports indented code but not an indented paragraph continuation', () => {
    expect(scanMarkdownBlocks('text\n    still text\n\n    code\n')).toEqual([
      { kind: 'paragraph', text: 'textstill text', line: 1 },
      { kind: 'indentedCode', line: 4 },
    ]);
    expect(scanMarkdownBlocks('\tcode')).toEqual([{ kind: 'indentedCode', line: 1 }]);
  });

  it('turns setext underlines into headings and keeps thematic breaks apart', () => {
    expect(scanMarkdownBlocks('Title\n=====\n\n---\nSub\n---\n')).toEqual([
      { kind: 'heading', level: 1, text: 'Title', line: 1 },
      { kind: 'thematicBreak', line: 4 },
      { kind: 'heading', level: 2, text: 'Sub', line: 5 },
    ]);
  });

  it('hides the content of HTML blocks and skips list and quote containers', () => {
    expect(scanMarkdownBlocks('<div>\n## not a heading\n</div>\n\n- item\n  ```\n\n> quote\n')).toEqual([
      { kind: 'html', line: 1 },
      { kind: 'container', line: 5 },
      { kind: 'container', line: 8 },
    ]);
  });

  it('does not treat #5 or a 7-hash line as a heading', () => {
    expect(scanMarkdownBlocks('#5 bolt\n')).toEqual([{ kind: 'paragraph', text: '#5 bolt', line: 1 }]);
    expect(scanMarkdownBlocks('####### x\n')).toEqual([{ kind: 'paragraph', text: '####### x', line: 1 }]);
  });

  it('numbers lines from the given first line', () => {
    expect(scanMarkdownBlocks('## A\n', 7)).toEqual([{ kind: 'heading', level: 2, text: 'A', line: 7 }]);
  });
});
