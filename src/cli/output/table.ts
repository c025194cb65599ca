export interface TableOptions {
  /** A line of dashes under the header, as wide as each column (default: true). */
  rule?: boolean;
}

/**
 * A plain-text table: columns as wide as their widest cell, two spaces apart, the last column
 * unpadded, and no trailing spaces (an empty last cell would leave some).
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = options.rule === false ? [] : [line(widths.map((w) => '-'.repeat(w)))];
  return [line(header), ...rule, ...rows.map(line)];
}
