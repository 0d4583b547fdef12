import Decimal from 'decimal.js';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { contentDisposition, XLSX_MIME } from './download';

/**
 * The streamed xlsx of the list exports (docs/ledger.md "Export"): a sheet written row by row to the
 * reply, so that the server holds one batch of rows whatever the size of the list. Money cells are
 * numbers shown with two decimals, so that Excel sums the column.
 */

/** Money cells are numbers shown with two decimals. */
export const MONEY_FMT = '#,##0.00';

export type XlsxCell = string | number | null;

export interface XlsxColumn<R> {
  header: string;
  width: number;
  money?: boolean;
  value: (r: R) => XlsxCell;
}

/**
 * A money string as the number Excel stores: the file format holds IEEE doubles, so the conversion
 * happens here, at the edge, and only for display. A figure the double would not give back to the
 * cent stays text rather than change.
 */
export const moneyCell = (v: string | null): XlsxCell => {
  if (v === null) return null;
  const cell = Number(v);
  return cell.toFixed(2) === new Decimal(v).toFixed(2) ? cell : v;
};

/** What the body of a sheet is written with. */
export interface SheetWriter<R> {
  /** One row of the columns' values for `r`. */
  record(r: R): void;
  /** A row of cells in column order (money columns formatted), bold for totals. */
  cells(values: XlsxCell[], bold?: boolean): void;
  /** A line of text in the first cell. */
  line(text: string, bold?: boolean): void;
  /**
   * Resolves once the client has taken what was written so far: await it before reading the next
   * batch, so a slow reader holds the producer back instead of the batches piling up in memory.
   */
  drained(): Promise<void>;
}

/**
 * Waits until `out` (the sheet's archive pipes into it) is below its high-water mark: the archive
 * stops reading the rows written while the reply is full, so they would wait in memory.
 */
export async function drained(out: PassThrough): Promise<void> {
  // Let the archive's deflate and pipe run on what the last batch wrote.
  await new Promise<void>((r) => setImmediate(r));
  while (out.writableNeedDrain && !out.destroyed)
    await Promise.race([once(out, 'drain'), once(out, 'close')]);
}

export interface SheetSpec<R> {
  fileName: string;
  sheetName: string;
  columns: readonly XlsxColumn<R>[];
  /** Bold lines above the header row. */
  titles?: readonly string[];
  /** Keep the titles and the header in view while scrolling. */
  freeze?: boolean;
  /** For the server log when the stream fails after the headers went out. */
  what: string;
}

/**
 * Answers with the sheet: titles, the header row, then whatever `body` writes (it may await its
 * next batch between rows). Read the first batch before calling, so that a failure there still
 * answers as JSON; a failure later ends the download broken, and is logged.
 */
export function streamSheet<R>(
  reply: FastifyReply,
  spec: SheetSpec<R>,
  body: (w: SheetWriter<R>) => Promise<void> | void,
): void {
  const out = new PassThrough();
  reply
    .code(200)
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition('attachment', spec.fileName))
    .header('cache-control', 'no-store');
  const titles = spec.titles ?? [];
  const produce = async () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const ws = wb.addWorksheet(
      spec.sheetName,
      spec.freeze ? { views: [{ state: 'frozen', ySplit: titles.length + 1 }] } : {},
    );
    ws.columns = spec.columns.map((c) => ({ width: c.width }));
    const line = (text: string, bold = false) => {
      const row = ws.addRow([text]);
      if (bold) row.font = { bold: true };
      row.commit();
    };
    for (const t of titles) line(t, true);
    const head = ws.addRow(spec.columns.map((c) => c.header));
    head.font = { bold: true };
    head.alignment = { vertical: 'middle', horizontal: 'center' };
    head.commit();
    const cells = (values: XlsxCell[], bold = false) => {
      const row = ws.addRow(values);
      spec.columns.forEach((c, i) => {
        if (c.money) row.getCell(i + 1).numFmt = MONEY_FMT;
      });
      if (bold) row.font = { bold: true };
      row.commit();
    };
    await body({
      record: (r) => cells(spec.columns.map((c) => c.value(r))),
      cells,
      line,
      drained: () => drained(out),
    });
    ws.commit();
    await wb.commit();
  };
  produce().catch((err: unknown) => {
    reply.log.error({ err }, `${spec.what} export failed mid-stream`);
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  reply.send(out);
}
