import { PassThrough } from 'node:stream';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { contentDisposition, XLSX_MIME } from './download';
import { drained } from './xlsx';

/**
 * 导出 of the business lists (docs/architecture.md "List exports"): the list's own query (filters,
 * sort and data scope as the screen shows them) read in batches and streamed as one xlsx sheet.
 */

/** Money cells are numbers shown with two decimals and thousands separators. */
export const MONEY_FMT = '#,##0.00';

export type CellValue = string | number | null;

/**
 * A money string as the number Excel stores, so that Excel sums the column. The file format holds
 * IEEE doubles, so the conversion happens here, at the edge, and only for display; a figure the
 * double would not give back to the cent stays text rather than change.
 */
export function moneyCell(v: string | null | undefined): CellValue {
  if (v === null || v === undefined || v === '') return null;
  const exact = new Decimal(v).toFixed(2);
  const cell = Number(exact);
  return cell.toFixed(2) === exact ? cell : exact;
}

export interface ExportColumn<R> {
  header: string;
  /** Characters; default 16. */
  width?: number;
  /**
   * The value is a money string: written as a numeric cell with the 2-decimal format, and summed
   * exactly (decimal, not float) into the 合计 row.
   */
  money?: boolean;
  /** A money column the 合计 row leaves empty (balances after each row; mixed signs). */
  noTotal?: boolean;
  value: (row: R) => string | number | null | undefined;
}

export interface ListExport<R> {
  fileName: string;
  sheetName: string;
  columns: readonly ExportColumn<R>[];
  /**
   * Page `pageNum` (from 1) of `pageSize` rows of the list's own query. A page shorter than
   * `pageSize` is the last one.
   */
  page: (pageNum: number, pageSize: number) => Promise<readonly R[]>;
  /** The count's unit in the 合计 row (笔, 户, 人). */
  unit: string;
  /** Rows per batch; memory holds one batch. */
  batchSize?: number;
}

export const EXPORT_BATCH = 500;

/**
 * Streams a list as xlsx: a bold frozen header, one row per list row, and a 合计 row with the count
 * and the exact sum of every money column (the first two columns carry the 合计 label and count). The first batch is read before any byte is sent, so a
 * refused filter or a failing query still answers as JSON; a failure later cuts the download.
 */
export async function streamListExport<R>(reply: FastifyReply, spec: ListExport<R>): Promise<void> {
  const size = spec.batchSize ?? EXPORT_BATCH;
  let rows = await spec.page(1, size);
  const out = new PassThrough();
  reply
    .code(200)
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition('attachment', spec.fileName))
    .header('cache-control', 'no-store');
  const produce = async () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const ws = wb.addWorksheet(spec.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = spec.columns.map((c) => ({ header: c.header, width: c.width ?? 16 }));
    const head = ws.getRow(1);
    head.font = { bold: true };
    head.alignment = { vertical: 'middle', horizontal: 'center' };
    head.commit();
    const sums = spec.columns.map(() => new Decimal(0));
    let n = 0;
    const write = (values: CellValue[], bold: boolean) => {
      const row = ws.addRow(values);
      spec.columns.forEach((c, i) => {
        if (c.money) row.getCell(i + 1).numFmt = MONEY_FMT;
      });
      if (bold) row.font = { bold: true };
      row.commit();
    };
    for (let pageNum = 1; ;) {
      for (const r of rows) {
        n++;
        write(
          spec.columns.map((c, i) => {
            const v = c.value(r);
            if (!c.money) return v ?? null;
            if (v === null || v === undefined || v === '') return null;
            sums[i] = sums[i]!.plus(v);
            return moneyCell(String(v));
          }),
          false,
        );
      }
      if (rows.length < size) break;
      await drained(out);
      pageNum++;
      rows = await spec.page(pageNum, size);
    }
    write(
      spec.columns.map((c, i) => {
        if (i === 0) return '合计';
        if (i === 1) return `${n}${spec.unit}`;
        return c.money && !c.noTotal ? moneyCell(sums[i]!.toFixed(2)) : null;
      }),
      true,
    );
    ws.commit();
    await wb.commit();
  };
  produce().catch((err: unknown) => {
    reply.log.error({ err, file: spec.fileName }, 'list export failed mid-stream');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  reply.send(out);
}
