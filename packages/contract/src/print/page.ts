import type { BizType } from '../print';
import { escapeHtml } from './template';

/**
 * Documents printed across the page (A4 landscape): the 客户对账单's twelve-column ledger does not
 * fit the width of a portrait page (docs/operations.md "Print layout").
 */
export const LANDSCAPE_TYPES: ReadonlySet<BizType> = new Set<BizType>(['statement']);

/**
 * The page a rendered template is printed on: zh-CN (so Chromium shapes Chinese with the Simplified
 * Chinese faces of fonts-noto-cjk, not Japanese ones), A4, and a plain layout for contract tables.
 * A date, code or amount never breaks inside: cells of class num, date or nowrap keep to one line,
 * and a table of class compact sets a ledger in a smaller size (docs/operations.md "Print layout").
 */
const STYLE = `
  html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  body { margin: 0; font-family: 'Noto Serif CJK SC', 'Noto Sans CJK SC', 'Source Han Serif SC', serif;
         font-size: 12pt; line-height: 1.7; color: #000; }
  h1, h2, h3 { text-align: center; margin: 0.4em 0 0.6em; }
  table { border-collapse: collapse; width: 100%; margin: 0.5em 0; }
  th, td { border: 1px solid #333; padding: 3px 6px; vertical-align: top; }
  th { background: #f2f2f2; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  td.date, th.date, .nowrap { white-space: nowrap; }
  table.compact { font-size: 9pt; line-height: 1.45; }
  table.compact th, table.compact td { padding: 2px 4px; }
  table.compact th { white-space: nowrap; }
  table.plain td, table.plain th { border: none; padding: 2px 0; }
  tr { page-break-inside: avoid; }
  .page-break { break-before: page; page-break-before: always; }
  @media screen { body { max-width: 180mm; margin: 12mm auto; padding: 0 8mm; } }
  .doc-mark { position: fixed; top: 38%; left: 0; right: 0; text-align: center; pointer-events: none;
              font-size: 64pt; font-weight: bold; color: rgba(207, 19, 34, 0.55); letter-spacing: 0.2em;
              transform: rotate(-24deg); border: 6px solid rgba(207, 19, 34, 0.55); width: 60%;
              margin: 0 auto; padding: 0.1em 0; }
`;

/**
 * The whole page. `mark` (已冲红 on a reversed write-off) is stamped over the body on every
 * printed page whatever the template says, so a reversed document never prints as a live one.
 */
export function printPage(
  title: string,
  body: string,
  mark?: string | null,
  opts: { landscape?: boolean } = {},
): string {
  const stamp = mark ? `<div class="doc-mark" data-mark="${escapeHtml(mark)}">${escapeHtml(mark)}</div>` : '';
  const page = opts.landscape
    ? '@page { size: A4 landscape; } @media screen { body { max-width: 261mm; } }'
    : '@page { size: A4; }';
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}${page}</style></head><body>${stamp}${body}</body></html>`;
}
