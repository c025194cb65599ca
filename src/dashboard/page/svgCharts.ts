/// <reference lib="dom" />

/**
 * The dashboard's charts, drawn as SVG by hand: a trend with its interval band and a timeline
 * of marks. They run inside dashboard.html as their own source text, so each uses only its
 * arguments and the functions of this file. Every piece of run text goes in through
 * textContent, never as markup.
 */

export interface TrendSeries {
  labels: string[];
  rate: (number | null)[];
  low: (number | null)[];
  high: (number | null)[];
  /** Mean overall score, 0–5, drawn on the right-hand scale. */
  mean: (number | null)[];
  /** Points where a new workflow_rev starts, with the rev's name. */
  newRev: (string | null)[];
}

export interface TimelineMark {
  row: number;
  at: number;
  kind: string;
  runId: string;
  /** Where the run opens. */
  href: string;
  detail: string;
  /** The candidate ran uncontained: the mark gets a dashed ring. */
  uncontained: boolean;
}

/** Shapes per mark kind, so a status reads without its colour too. */
export const MARK_SHAPES: Record<string, { shape: string; colour: string; label: string }> = {
  pass: { shape: 'circle', colour: '#1a7f37', label: 'pass (●)' },
  fail: { shape: 'cross', colour: '#cf222e', label: 'fail (✕)' },
  needs_review: { shape: 'diamond', colour: '#9a6700', label: 'needs review (◇)' },
  aborted: { shape: 'square', colour: '#57606a', label: 'aborted (■)' },
  infra_error: { shape: 'triangle', colour: '#bc4c00', label: 'infra error (▲)' },
  judge_failed: { shape: 'triangle-down', colour: '#8250df', label: 'judge failed (▼)' },
  cancelled: { shape: 'bar', colour: '#6e7781', label: 'cancelled (−)' },
  pending: { shape: 'ring', colour: '#8c959f', label: 'pending (○)' },
  running: { shape: 'ring', colour: '#0969da', label: 'running (○)' },
};

export function svgElement(doc: Document, name: string, attributes: Record<string, string | number> = {}): SVGElement {
  const element = doc.createElementNS('http://www.w3.org/2000/svg', name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** Pass rate per batch with its interval band (left scale 0–100%) and mean overall (right scale 0–5, dashed). */
export function trendChart(doc: Document, series: TrendSeries, onHover: (text: string | null, event?: MouseEvent) => void): SVGElement {
  const width = 720, height = 240, left = 60, right = 60, top = 16, bottom = 40;
  const svg = svgElement(doc, 'svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart trend', role: 'img', 'aria-label': 'pass rate per batch' });
  const n = series.labels.length;
  const x = (i: number) => left + (n <= 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (n - 1));
  const y = (rate: number) => top + (1 - rate) * (height - top - bottom);
  const y5 = (score: number) => y(score / 5);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    svg.appendChild(svgElement(doc, 'line', { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: 'grid' }));
    const label = svgElement(doc, 'text', { x: left - 6, y: y(tick) + 4, 'text-anchor': 'end', class: 'axis' });
    label.textContent = `${Math.round(tick * 100)}%`;
    svg.appendChild(label);
    const score = svgElement(doc, 'text', { x: width - right + 6, y: y(tick) + 4, class: 'axis' });
    score.textContent = String(tick * 5);
    svg.appendChild(score);
  }
  const band: string[] = [];
  for (let i = 0; i < n; i++) if (series.high[i] !== null) band.push(`${x(i)},${y(series.high[i]!)}`);
  for (let i = n - 1; i >= 0; i--) if (series.low[i] !== null) band.push(`${x(i)},${y(series.low[i]!)}`);
  if (band.length > 2) svg.appendChild(svgElement(doc, 'polygon', { points: band.join(' '), class: 'band' }));
  const line = (values: (number | null)[], scale: (v: number) => number, cls: string) => {
    const points = values.flatMap((v, i) => (v === null ? [] : [`${x(i)},${scale(v)}`]));
    if (points.length > 1) svg.appendChild(svgElement(doc, 'polyline', { points: points.join(' '), class: cls }));
  };
  line(series.rate, y, 'rate');
  line(series.mean, y5, 'mean');
  for (let i = 0; i < n; i++) {
    if (series.newRev[i] !== null) {
      svg.appendChild(svgElement(doc, 'line', { x1: x(i), x2: x(i), y1: top, y2: height - bottom, class: 'rev-mark' }));
      const rev = svgElement(doc, 'text', { x: x(i) + 3, y: top + 10, class: 'rev-label' });
      rev.textContent = series.newRev[i]!.slice(0, 12);
      svg.appendChild(rev);
    }
    if (series.rate[i] === null) continue;
    const point = svgElement(doc, 'circle', { cx: x(i), cy: y(series.rate[i]!), r: 4, class: 'point', 'data-batch': series.labels[i]! });
    const text = `${series.labels[i]}: ${(series.rate[i]! * 100).toFixed(1)}% [${(series.low[i]! * 100).toFixed(1)}–${(series.high[i]! * 100).toFixed(1)}], mean overall ${series.mean[i] === null ? '–' : series.mean[i]!.toFixed(2)}`;
    point.addEventListener('mouseenter', (event) => onHover(text, event as MouseEvent));
    point.addEventListener('mouseleave', () => onHover(null));
    svg.appendChild(point);
    if (n <= 12 || i % Math.ceil(n / 12) === 0) {
      const label = svgElement(doc, 'text', { x: x(i), y: height - bottom + 16, 'text-anchor': 'middle', class: 'axis' });
      label.textContent = series.labels[i]!.replace(/^batch-/, '').slice(0, 15);
      svg.appendChild(label);
    }
  }
  return svg;
}

/** One row per case, one mark per run in time order; hovering a mark shows its detail. */
export function timelineChart(doc: Document, rows: string[], marks: TimelineMark[], onHover: (text: string | null, event?: MouseEvent) => void): SVGElement {
  const labelWidth = 220, width = 900, rowHeight = 22, top = 8;
  const height = top * 2 + rows.length * rowHeight;
  const svg = svgElement(doc, 'svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart timeline', role: 'img', 'aria-label': 'runs per case over time' });
  // Ordinal time, one slot per run: runs minutes apart within a batch days apart from the
  // next would sit on one spot otherwise, and so would two runs of the same second.
  const order = [...marks].sort((a, b) => a.at - b.at || (a.runId < b.runId ? -1 : 1));
  const rank = new Map(order.map((m, i) => [m, i]));
  const x = (mark: TimelineMark) => labelWidth + 10 + (order.length === 1 ? (width - labelWidth - 20) / 2 : (rank.get(mark)! * (width - labelWidth - 20)) / (order.length - 1));
  rows.forEach((row, r) => {
    const label = svgElement(doc, 'text', { x: labelWidth - 6, y: top + r * rowHeight + rowHeight / 2 + 4, 'text-anchor': 'end', class: 'row-label' });
    label.textContent = row.length > 34 ? `${row.slice(0, 33)}…` : row;
    svg.appendChild(label);
    svg.appendChild(svgElement(doc, 'line', { x1: labelWidth, x2: width, y1: top + (r + 1) * rowHeight, y2: top + (r + 1) * rowHeight, class: 'grid' }));
  });
  for (const mark of marks) {
    const g = markShape(doc, mark.kind, x(mark), top + mark.row * rowHeight + rowHeight / 2);
    g.setAttribute('class', `mark mark-${mark.kind}`);
    g.setAttribute('data-run', mark.runId);
    g.setAttribute('data-kind', mark.kind);
    if (mark.uncontained) {
      g.setAttribute('data-uncontained', 'true');
      g.appendChild(uncontainedRing(doc));
    }
    const title = svgElement(doc, 'title');
    title.textContent = mark.detail;
    g.appendChild(title);
    g.addEventListener('mouseenter', (event) => onHover(mark.detail, event as MouseEvent));
    g.addEventListener('mouseleave', () => onHover(null));
    // A link, so the run opens from its mark by mouse or keyboard.
    const link = svgElement(doc, 'a', { href: mark.href, class: 'mark-link', 'aria-label': mark.detail.split('\n').slice(0, 2).join(', ') });
    link.appendChild(g);
    svg.appendChild(link);
  }
  return svg;
}

/** A mark's shape at (cx, cy), in its kind's colour. */
export function markShape(doc: Document, kind: string, cx: number, cy: number, size = 6): SVGElement {
  const style = MARK_SHAPES[kind] ?? { shape: 'circle', colour: '#000', label: kind };
  const g = svgElement(doc, 'g', { transform: `translate(${cx.toFixed(1)},${cy.toFixed(1)})`, fill: style.colour, stroke: style.colour });
  const s = size;
  const shapes: Record<string, () => SVGElement[]> = {
    circle: () => [svgElement(doc, 'circle', { r: s * 0.8 })],
    ring: () => [svgElement(doc, 'circle', { r: s * 0.7, fill: 'none', 'stroke-width': 2 })],
    cross: () => [svgElement(doc, 'path', { d: `M${-s * 0.7},${-s * 0.7}L${s * 0.7},${s * 0.7}M${-s * 0.7},${s * 0.7}L${s * 0.7},${-s * 0.7}`, 'stroke-width': 2.5, fill: 'none' })],
    diamond: () => [svgElement(doc, 'path', { d: `M0,${-s}L${s},0L0,${s}L${-s},0Z`, fill: 'none', 'stroke-width': 2 })],
    square: () => [svgElement(doc, 'rect', { x: -s * 0.7, y: -s * 0.7, width: s * 1.4, height: s * 1.4 })],
    triangle: () => [svgElement(doc, 'path', { d: `M0,${-s}L${s},${s * 0.8}L${-s},${s * 0.8}Z` })],
    'triangle-down': () => [svgElement(doc, 'path', { d: `M0,${s}L${s},${-s * 0.8}L${-s},${-s * 0.8}Z` })],
    bar: () => [svgElement(doc, 'rect', { x: -s, y: -s * 0.25, width: s * 2, height: s * 0.5 })],
  };
  for (const part of (shapes[style.shape] ?? shapes.circle!)()) g.appendChild(part);
  return g;
}

/** The dashed ring around the mark of a run whose candidate ran uncontained (isolation: none). */
export function uncontainedRing(doc: Document, size = 6): SVGElement {
  return svgElement(doc, 'circle', { r: size * 1.45, fill: 'none', stroke: '#bc4c00', 'stroke-width': 1.5, 'stroke-dasharray': '2 2', class: 'uncontained-ring' });
}

/** Metrics on a 0–1 scale per batch, one line each (solid, dashed, dotted), with a legend: the edit-prediction trend. */
export function metricsChart(doc: Document, labels: string[], lines: { name: string; values: (number | null)[] }[], onHover: (text: string | null, event?: MouseEvent) => void): SVGElement {
  const width = 720, height = 220, left = 50, right = 20, top = 28, bottom = 40;
  const svg = svgElement(doc, 'svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart metrics', role: 'img', 'aria-label': 'edit-prediction metrics per batch' });
  const n = labels.length;
  const x = (i: number) => left + (n <= 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (n - 1));
  const y = (value: number) => top + (1 - value) * (height - top - bottom);
  for (const tick of [0, 0.5, 1]) {
    svg.appendChild(svgElement(doc, 'line', { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: 'grid' }));
    const label = svgElement(doc, 'text', { x: left - 6, y: y(tick) + 4, 'text-anchor': 'end', class: 'axis' });
    label.textContent = String(tick);
    svg.appendChild(label);
  }
  const dashes = ['', '6 4', '2 3'];
  lines.forEach((line, index) => {
    const points = line.values.map((value, i) => (value === null ? null : `${x(i)},${y(value)}`)).filter((p): p is string => p !== null);
    if (points.length > 1) svg.appendChild(svgElement(doc, 'polyline', { points: points.join(' '), class: `metric metric-${index}`, fill: 'none', 'stroke-dasharray': dashes[index % dashes.length]! }));
    line.values.forEach((value, i) => {
      if (value === null) return;
      const dot = svgElement(doc, 'circle', { cx: x(i), cy: y(value), r: 3.5, class: `metric-dot metric-${index}` });
      dot.addEventListener('mouseenter', (event) => onHover(`${labels[i]}: ${line.name} ${value.toFixed(3)}`, event as MouseEvent));
      dot.addEventListener('mouseleave', () => onHover(null));
      svg.appendChild(dot);
    });
    const key = svgElement(doc, 'text', { x: left + index * 200, y: 14, class: `legend metric-${index}` });
    key.textContent = `${['—', '– –', '···'][index % 3]} ${line.name}`;
    svg.appendChild(key);
  });
  labels.forEach((label, i) => {
    const text = svgElement(doc, 'text', { x: x(i), y: height - bottom + 16, 'text-anchor': 'middle', class: 'axis' });
    text.textContent = label.length > 18 ? `…${label.slice(-17)}` : label;
    svg.appendChild(text);
  });
  return svg;
}

/** The functions above, as the page embeds them. */
export const CHART_FUNCTIONS = [svgElement, trendChart, timelineChart, markShape, uncontainedRing, metricsChart];
