import Decimal from 'decimal.js';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import {
  TRIAL_FILE_NAME,
  VOUCHER_DOC_LABELS,
  VOUCHER_FILE_NAME,
  type TrialBalance,
  type VoucherDocType,
} from '@portal/contract/voucher';
import { queryRows, type Executor } from '../../platform/db/client';
import { contentDisposition } from '../../platform/http/download';
import { moneyCell, streamSheet, type XlsxColumn } from '../../platform/http/xlsx';
import { waitForRoom } from '../../platform/http/zip';
import { auxText, voucherNo, voucherWhere } from './service';

const BATCH = 1000;

/** One exported line: the columns common Chinese accounting packages import (docs/accounting.md). */
export interface ExportLine {
  voucherDate: string;
  voucherNo: string;
  summary: string;
  accountCode: string;
  accountName: string;
  debit: string;
  credit: string;
  aux: string;
  source: string;
}
export const EXPORT_HEADERS = [
  '凭证日期',
  '凭证字号',
  '摘要',
  '科目编码',
  '科目名称',
  '借方金额',
  '贷方金额',
  '辅助核算',
  '来源单据',
] as const;

interface LineRow {
  vid: number;
  line_no: number;
  voucher_date: string;
  no: number;
  summary: string;
  account_code: string;
  account_name: string;
  debit: string;
  credit: string;
  cust_code: string | null;
  cust_name: string | null;
  contract_no: string | null;
  doc_type: VoucherDocType;
  doc_code: string;
}

type Filters = Parameters<typeof voucherWhere>[0];

/**
 * The lines of the matching vouchers in 凭证字号 order, read in batches by (period, no, line) so
 * that the server holds one batch whatever the size of the books.
 */
export function exportBatches(ex: Executor, f: Filters) {
  const where = voucherWhere(f);
  return async (after: { period: string; no: number; line: number } | null) => {
    const rows = await queryRows<LineRow & { period: string }>(
      ex,
      sql`select v.id::int as vid, v.period, v.no, l.line_no, to_char(v.voucher_date, 'YYYY-MM-DD') as voucher_date,
                 l.summary, l.account_code, l.account_name, l.debit::text, l.credit::text,
                 l.cust_code, l.cust_name, l.contract_no, v.doc_type, v.doc_code
            from vouchers v join voucher_lines l on l.voucher_id = v.id
           where ${where}
             ${after ? sql`and (v.period, v.no, l.line_no) > (${after.period}::char(7), ${after.no}::int, ${after.line}::int)` : sql``}
           order by v.period, v.no, l.line_no
           limit ${BATCH}`,
    );
    const last = rows.at(-1);
    return {
      lines: rows.map((r): ExportLine => ({
        voucherDate: r.voucher_date,
        voucherNo: voucherNo(r.no),
        summary: r.summary,
        accountCode: r.account_code,
        accountName: r.account_name,
        debit: new Decimal(r.debit).toFixed(2),
        credit: new Decimal(r.credit).toFixed(2),
        aux: auxText({ custCode: r.cust_code, custName: r.cust_name, contractNo: r.contract_no }),
        source: `${VOUCHER_DOC_LABELS[r.doc_type]} ${r.doc_code}`,
      })),
      next: rows.length === BATCH && last ? { period: last.period, no: last.no, line: last.line_no } : null,
    };
  };
}

type Next = ReturnType<typeof exportBatches>;

const values = (l: ExportLine) => [
  l.voucherDate,
  l.voucherNo,
  l.summary,
  l.accountCode,
  l.accountName,
  l.debit,
  l.credit,
  l.aux,
  l.source,
];

/** A CSV field: quoted when needed; text that a spreadsheet would run as a formula is defused. */
function csvField(v: string, money: boolean): string {
  const safe = !money && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
export const csvLine = (l: ExportLine) =>
  values(l)
    .map((v, i) => csvField(v, i === 5 || i === 6))
    .join(',') + '\r\n';

function start(reply: FastifyReply, mime: string, name: string): PassThrough {
  reply
    .code(200)
    .header('content-type', mime)
    .header('content-disposition', contentDisposition('attachment', name))
    .header('cache-control', 'no-store');
  return new PassThrough();
}

/**
 * The vouchers as CSV (UTF-8 with a BOM, so that Excel reads the Chinese), streamed batch by
 * batch. The first batch is read before any byte is sent, so a failure there answers as JSON.
 */
export async function streamCsv(reply: FastifyReply, next: Next): Promise<void> {
  let batch = await next(null);
  const out = start(reply, 'text/csv; charset=utf-8', `${VOUCHER_FILE_NAME}.csv`);
  const produce = async () => {
    out.write('\uFEFF' + EXPORT_HEADERS.join(',') + '\r\n');
    for (;;) {
      const chunk = batch.lines.map(csvLine).join('');
      if (!out.write(chunk)) await waitForRoom(out);
      if (out.destroyed) throw new Error('the download was cancelled');
      if (!batch.next) break;
      batch = await next(batch.next);
    }
    out.end();
  };
  produce().catch((err: unknown) => {
    reply.log.error({ err }, 'voucher csv export failed mid-stream');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  reply.send(out);
}

/** The xlsx columns: money as numbers with two decimals, as in every export (docs/ledger.md "Export"). */
const XLSX_COLUMNS: XlsxColumn<ExportLine>[] = [
  { header: EXPORT_HEADERS[0], width: 12, value: (l) => l.voucherDate },
  { header: EXPORT_HEADERS[1], width: 10, value: (l) => l.voucherNo },
  { header: EXPORT_HEADERS[2], width: 36, value: (l) => l.summary },
  { header: EXPORT_HEADERS[3], width: 12, value: (l) => l.accountCode },
  { header: EXPORT_HEADERS[4], width: 16, value: (l) => l.accountName },
  { header: EXPORT_HEADERS[5], width: 16, money: true, value: (l) => moneyCell(l.debit) },
  { header: EXPORT_HEADERS[6], width: 16, money: true, value: (l) => moneyCell(l.credit) },
  { header: EXPORT_HEADERS[7], width: 40, value: (l) => l.aux },
  { header: EXPORT_HEADERS[8], width: 24, value: (l) => l.source },
];

/**
 * The vouchers as a streamed xlsx: header, one row per line, read batch by batch as the client
 * takes them, and a 合计 row: Σ debit and Σ credit of the lines above it, red lines with their
 * negative amounts (docs/accounting.md "Export"), so a voucher and its mirror in the file net to 0.
 */
export async function streamXlsx(reply: FastifyReply, next: Next): Promise<void> {
  let batch = await next(null);
  let debit = new Decimal(0);
  let credit = new Decimal(0);
  streamSheet(
    reply,
    {
      fileName: `${VOUCHER_FILE_NAME}.xlsx`,
      sheetName: '会计凭证',
      columns: XLSX_COLUMNS,
      freeze: true,
      what: 'voucher xlsx',
    },
    async (w) => {
      for (;;) {
        for (const l of batch.lines) {
          w.record(l);
          debit = debit.plus(l.debit);
          credit = credit.plus(l.credit);
        }
        if (!batch.next) break;
        await w.drained();
        batch = await next(batch.next);
      }
      w.cells(
        [
          '合计',
          null,
          null,
          null,
          null,
          moneyCell(debit.toFixed(2)),
          moneyCell(credit.toFixed(2)),
          null,
          null,
        ],
        true,
      );
    },
  );
}

type TrialLine = TrialBalance['rows'][number];
const TRIAL_COLUMNS: XlsxColumn<TrialLine>[] = [
  { header: '科目编码', width: 12, value: (r) => r.accountCode },
  { header: '科目名称', width: 18, value: (r) => r.accountName },
  { header: '期初借方', width: 16, money: true, value: (r) => moneyCell(r.openingDebit) },
  { header: '期初贷方', width: 16, money: true, value: (r) => moneyCell(r.openingCredit) },
  { header: '本期借方', width: 16, money: true, value: (r) => moneyCell(r.debit) },
  { header: '本期贷方', width: 16, money: true, value: (r) => moneyCell(r.credit) },
  { header: '期末借方', width: 16, money: true, value: (r) => moneyCell(r.closingDebit) },
  { header: '期末贷方', width: 16, money: true, value: (r) => moneyCell(r.closingCredit) },
];

/** 试算平衡.xlsx: the screen's rows and totals (one row per account, a period holds few). */
export function streamTrial(reply: FastifyReply, tb: TrialBalance): void {
  streamSheet(
    reply,
    {
      fileName: `${TRIAL_FILE_NAME}.xlsx`,
      sheetName: '试算平衡',
      columns: TRIAL_COLUMNS,
      titles: [`试算平衡（科目余额表）  会计期间：${tb.period}  ${tb.balanced ? '借贷平衡' : '借贷不平衡'}`],
      freeze: true,
      what: 'trial balance xlsx',
    },
    async (w) => {
      for (const r of tb.rows) w.record(r);
      w.cells(
        [
          '合计',
          null,
          ...TRIAL_COLUMNS.slice(2).map((c) => c.value({ accountCode: '', accountName: '', ...tb.totals })),
        ],
        true,
      );
    },
  );
}
