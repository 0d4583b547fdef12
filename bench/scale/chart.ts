/**
 * The scale bench's chart (bench/README.md embeds it): one small panel per figure, the scale on a
 * log axis (0.1, 1, 10), the figure on a linear one from 0, its target as a dashed line when it
 * falls within the panel. Hand-written SVG: no chart library.
 */
export interface Panel {
  title: string;
  unit: string;
  points: { scale: number; value: number }[];
  /** The target's ceiling, drawn when within the panel. */
  limit?: number;
}

const W = 240;
const H = 170;
const COLS = 4;
const PAD = { left: 46, right: 12, top: 26, bottom: 30 };
const SCALES = [0.1, 1, 10];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (v: number) =>
  v === 0 ? '0' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v >= 10 ? v.toFixed(1) : v.toFixed(2);

/** A round step for about four ticks up to `max`. */
function step(max: number): number {
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
}

function panel(p: Panel, x0: number, y0: number): string {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const top = Math.max(...p.points.map((q) => q.value), 0);
  const withLimit = p.limit !== undefined && p.limit <= top * 3 ? Math.max(top, p.limit) : top;
  const tick = step(withLimit > 0 ? withLimit * 1.1 : 1);
  const yMax = Math.ceil((withLimit * 1.1 || 1) / tick) * tick;
  const x = (s: number) => x0 + PAD.left + ((Math.log10(s) + 1) / 2) * plotW;
  const y = (v: number) => y0 + PAD.top + plotH - (v / yMax) * plotH;
  const out: string[] = [
    `<text x="${x0 + 6}" y="${y0 + 16}" class="t">${esc(p.title)} (${esc(p.unit)})</text>`,
    `<rect x="${x0 + PAD.left}" y="${y0 + PAD.top}" width="${plotW}" height="${plotH}" class="f"/>`,
  ];
  for (let v = 0; v <= yMax + 1e-9; v += tick)
    out.push(
      `<line x1="${x0 + PAD.left}" x2="${x0 + PAD.left + plotW}" y1="${y(v)}" y2="${y(v)}" class="g"/>`,
      `<text x="${x0 + PAD.left - 4}" y="${y(v) + 3}" class="a" text-anchor="end">${num(v)}</text>`,
    );
  for (const s of SCALES)
    out.push(`<text x="${x(s)}" y="${y0 + H - 12}" class="a" text-anchor="middle">×${s}</text>`);
  if (p.limit !== undefined && p.limit <= yMax)
    out.push(
      `<line x1="${x0 + PAD.left}" x2="${x0 + PAD.left + plotW}" y1="${y(p.limit)}" y2="${y(p.limit)}" class="l"/>`,
    );
  const pts = [...p.points].sort((a, b) => a.scale - b.scale);
  if (pts.length > 1)
    out.push(`<polyline points="${pts.map((q) => `${x(q.scale)},${y(q.value)}`).join(' ')}" class="p"/>`);
  for (const q of pts)
    out.push(
      `<circle cx="${x(q.scale)}" cy="${y(q.value)}" r="3" class="d"/>`,
      `<text x="${x(q.scale) + (q.scale === 10 ? -5 : 5)}" y="${y(q.value) - 6}" class="v" text-anchor="${q.scale === 10 ? 'end' : 'start'}">${num(q.value)}</text>`,
    );
  if (pts.length === 0)
    out.push(
      `<text x="${x(1)}" y="${y0 + PAD.top + plotH / 2}" class="a" text-anchor="middle">not measured</text>`,
    );
  return out.join('\n');
}

/** The whole chart: the panels in rows of four under a caption. */
export function scaleChart(panels: Panel[], caption: string): string {
  const rows = Math.ceil(panels.length / COLS);
  const width = COLS * W;
  const height = rows * H + 30;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    '<style>.t{font-size:11px;font-weight:bold}.a{font-size:9px;fill:#555}.v{font-size:9px;fill:#1f4e9a}' +
      '.f{fill:#fafafa;stroke:#bbb}.g{stroke:#e4e4e4}.l{stroke:#c0392b;stroke-dasharray:4 3}' +
      '.p{fill:none;stroke:#1f4e9a;stroke-width:1.5}.d{fill:#1f4e9a}</style>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="8" y="18" font-size="12">Figures against the portfolio's scale (×1 = 100,000 contracts; x log); dashed: the target's ceiling. ${esc(caption)}</text>`,
    ...panels.map((p, i) => panel(p, (i % COLS) * W, 30 + Math.floor(i / COLS) * H)),
    '</svg>',
    '',
  ].join('\n');
}
