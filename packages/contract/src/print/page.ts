import { escapeHtml } from './template';

/**
 * The page a rendered template is printed on: zh-CN (so Chromium shapes Chinese with the Simplified
 * Chinese faces of fonts-noto-cjk, not Japanese ones), A4, and a plain layout for contract tables.
 */
const STYLE = `
  @page { size: A4; }
  html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  body { margin: 0; font-family: 'Noto Serif CJK SC', 'Noto Sans CJK SC', 'Source Han Serif SC', serif;
         font-size: 12pt; line-height: 1.7; color: #000; }
  h1, h2, h3 { text-align: center; margin: 0.4em 0 0.6em; }
  table { border-collapse: collapse; width: 100%; margin: 0.5em 0; }
  th, td { border: 1px solid #333; padding: 3px 6px; vertical-align: top; }
  th { background: #f2f2f2; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  table.plain td, table.plain th { border: none; padding: 2px 0; }
  tr { page-break-inside: avoid; }
  .page-break { break-before: page; page-break-before: always; }
  @media screen { body { max-width: 180mm; margin: 12mm auto; padding: 0 8mm; } }
`;

export function printPage(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}
