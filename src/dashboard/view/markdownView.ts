/// <reference lib="dom" />

/**
 * Markdown (review.md, compare-<batch>.md) as elements, for the viewer's pages: headings,
 * paragraphs, lists, quotes, fenced code, tables, and inline code, bold, italics and links.
 * Every piece of text goes in through textContent and only http(s) and relative links become
 * links, so markup a model wrote (`<img onerror=…>`) shows as text and never runs: sanitized
 * by construction, not by a filter. Runs in the page as its own source text.
 */
export function renderMarkdown(doc: Document, text: string): HTMLElement {
  const root = doc.createElement('div');
  root.className = 'markdown';
  // inertMarkdown wrote model text's `<` as `&lt;`: shown as the character, as a renderer would.
  const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'" };
  const decode = (s: string) => s.replace(/&(lt|gt|amp|quot|#39);/g, (_, name: string) => entities[name]!);
  const inline = (parent: HTMLElement, source: string) => {
    // Inline code, links, bold, italics; whatever else is text.
    const pattern = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_/g;
    let last = 0;
    for (const match of source.matchAll(pattern)) {
      if (match.index > last) parent.appendChild(doc.createTextNode(decode(source.slice(last, match.index))));
      let node: HTMLElement;
      if (match[1] !== undefined) {
        node = doc.createElement('code');
        node.textContent = match[1];
      } else if (match[2] !== undefined) {
        const href = match[3]!;
        const safe = /^https?:\/\//i.test(href) || !/^[a-z][a-z0-9+.-]*:/i.test(href);
        node = doc.createElement(safe ? 'a' : 'span');
        if (safe) node.setAttribute('href', href);
        node.textContent = decode(match[2]);
      } else {
        node = doc.createElement(match[4] !== undefined ? 'strong' : 'em');
        node.textContent = decode(match[4] ?? match[5] ?? match[6]!);
      }
      parent.appendChild(node);
      last = match.index + match[0].length;
    }
    if (last < source.length) parent.appendChild(doc.createTextNode(decode(source.slice(last))));
  };
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (/^\s*$/.test(line)) {
      i += 1;
      continue;
    }
    const fence = /^(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i += 1; i < lines.length && !lines[i]!.startsWith(fence[1]!); i++) body.push(lines[i]!);
      i += 1;
      const pre = doc.createElement('pre');
      const code = doc.createElement('code');
      code.textContent = body.join('\n');
      pre.appendChild(code);
      root.appendChild(pre);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const h = doc.createElement(`h${Math.min(6, heading[1]!.length + 2)}`);
      inline(h, heading[2]!);
      root.appendChild(h);
      i += 1;
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const table = doc.createElement('table');
      for (; i < lines.length && /^\s*\|/.test(lines[i]!); i++) {
        const cells = lines[i]!.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/);
        if (cells.every((c) => /^\s*:?-+:?\s*$/.test(c))) continue;
        const tr = doc.createElement('tr');
        for (const cell of cells) {
          const td = doc.createElement(table.rows.length === 0 ? 'th' : 'td');
          inline(td, cell.trim().replace(/\\\|/g, '|'));
          tr.appendChild(td);
        }
        table.appendChild(tr);
      }
      root.appendChild(table);
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+/;
    if (item.test(line)) {
      const list = doc.createElement(/^\s*\d/.test(line) ? 'ol' : 'ul');
      for (; i < lines.length && item.test(lines[i]!); i++) {
        const li = doc.createElement('li');
        inline(li, lines[i]!.replace(item, ''));
        list.appendChild(li);
      }
      root.appendChild(list);
      continue;
    }
    const quote = /^>\s?/.test(line);
    const block = doc.createElement(quote ? 'blockquote' : 'p');
    const body: string[] = [];
    for (; i < lines.length && !/^\s*$/.test(lines[i]!) && /^>\s?/.test(lines[i]!) === quote && !/^(#{1,6}\s|```|~~~|\s*\||\s*([-*+]|\d+[.)])\s)/.test(lines[i]!); i++) body.push(lines[i]!.replace(/^>\s?/, ''));
    if (body.length === 0) body.push(lines[i++]!);
    inline(block, body.join('\n'));
    root.appendChild(block);
  }
  return root;
}
