import Decimal from 'decimal.js';
import type { FastifyReply } from 'fastify';
import {
  COLLECTION_CHANNEL_LABELS,
  COLLECTION_RESULT_LABELS,
  PROMISE_STATE_LABELS,
  type CollectionRow,
} from '@portal/contract/collections';
import { formatMoney } from '@portal/contract/format';
import { escapeXml as esc } from '../../platform/http/xlsx';

const HEAD = [
  '合同号',
  '客户名称',
  '催收人',
  '逾期天数',
  '逾期金额',
  '罚息',
  '最近联系',
  '承诺还款',
  '下一步行动',
];

function cells(r: CollectionRow): string[] {
  const contact = r.lastContactDate
    ? `${r.lastContactDate} ${r.lastContactChannel ? COLLECTION_CHANNEL_LABELS[r.lastContactChannel] : ''} ${
        r.lastContactResult ? COLLECTION_RESULT_LABELS[r.lastContactResult] : ''
      }`
    : '—';
  const promise = r.promiseDate
    ? `${r.promiseDate} ${formatMoney(r.promiseAmount)} ${r.promiseState ? PROMISE_STATE_LABELS[r.promiseState] : ''}`
    : '—';
  const next = r.nextAction ? `${r.nextAction}${r.nextActionDate ? `（${r.nextActionDate}）` : ''}` : '—';
  return [
    r.contractNo,
    r.custName,
    r.assigneeName ?? '—',
    String(r.overdueDays),
    formatMoney(r.overdueAmount),
    formatMoney(r.penaltyAmount),
    contact,
    promise,
    next,
  ];
}

/**
 * The worklist as a printable A4-landscape page (docs/collections.md "Export and print"): the
 * company, the business date, the rows the screen's filters give, and a 合计 line. Every value is
 * escaped; the page carries no script.
 */
export function worklistHtml(rows: readonly CollectionRow[], asOf: string, companyName: string): string {
  const sum = (f: (r: CollectionRow) => string) =>
    rows.reduce((s, r) => s.plus(f(r)), new Decimal(0)).toFixed(2);
  const numeric = new Set([3, 4, 5]);
  const td = (v: string, i: number) => `<td${numeric.has(i) ? ' class="n"' : ''}>${esc(v)}</td>`;
  const body = rows.map((r) => `<tr>${cells(r).map(td).join('')}</tr>`).join('\n');
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>逾期催收清单</title>
<style>
@page { size: A4 landscape; margin: 12mm; }
body { font-family: "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; font-size: 11px; }
h1 { font-size: 18px; text-align: center; margin: 0 0 4px; }
p.meta { text-align: center; margin: 0 0 8px; }
table { width: 100%; border-collapse: collapse; }
th, td { border: 1px solid #555; padding: 3px 4px; }
th { background: #eee; }
td.n { text-align: right; white-space: nowrap; }
tfoot td { font-weight: bold; }
</style></head><body>
<h1>逾期催收清单</h1>
<p class="meta">${esc(companyName)}&emsp;营业日：${esc(asOf)}&emsp;共${rows.length}笔</p>
<table><thead><tr>${HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody>
<tfoot><tr><td>合计</td><td>${rows.length}笔</td><td></td><td></td><td class="n">${esc(
    formatMoney(sum((r) => r.overdueAmount)),
  )}</td><td class="n">${esc(formatMoney(sum((r) => r.penaltyAmount)))}</td><td></td><td></td><td></td></tr></tfoot>
</table></body></html>`;
}

export function sendWorklistHtml(reply: FastifyReply, html: string): void {
  void reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}
