import Decimal from 'decimal.js';
import type { FastifyReply } from 'fastify';
import { moneyCell, streamSheet, type XlsxCell } from './xlsx';

/**
 * 导出 of the business lists (docs/architecture.md "List exports"): the list's own query (filters,
 * sort and data scope as the screen shows them) read in batches and streamed as one xlsx sheet.
 */

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
  /**
   * A document list: whether a row is in force. A reversed or rejected (or not yet approved) row is
   * listed with its state but left out of the 合计 row's count and sums (docs/money-rules.md "Totals").
   */
  inForce?: (row: R) => boolean;
  /** Rows per batch; memory holds one batch. */
  batchSize?: number;
}

export const EXPORT_BATCH = 500;

/**
 * Streams a list as xlsx: a bold frozen header, one row per list row, and a 合计 row with the count
 * and the exact sum of every money column (the first two columns carry the 合计 label and count).
 * The first batch is read before any byte is sent, so a refused filter or a failing query still
 * answers as JSON; a failure later cuts the download.
 */
export async function streamListExport<R>(reply: FastifyReply, spec: ListExport<R>): Promise<void> {
  const size = spec.batchSize ?? EXPORT_BATCH;
  let rows = await spec.page(1, size);
  const sums = spec.columns.map(() => new Decimal(0));
  // Set per row before its cells are written: whether its money goes into the 合计 row.
  let counted = true;
  const columns = spec.columns.map((c, i) => ({
    header: c.header,
    width: c.width ?? 16,
    money: c.money,
    value: (r: R): XlsxCell => {
      const v = c.value(r);
      if (!c.money) return v ?? null;
      if (v === null || v === undefined || v === '') return null;
      if (counted) sums[i] = sums[i]!.plus(v);
      return moneyCell(String(v));
    },
  }));
  streamSheet(
    reply,
    {
      fileName: spec.fileName,
      sheetName: spec.sheetName,
      columns,
      freeze: true,
      what: `list ${spec.fileName}`,
    },
    async (w) => {
      let n = 0;
      let left = 0;
      for (let pageNum = 1; ;) {
        for (const r of rows) {
          counted = spec.inForce?.(r) ?? true;
          if (counted) n++;
          else left++;
          w.record(r);
        }
        if (rows.length < size) break;
        await w.drained();
        pageNum++;
        rows = await spec.page(pageNum, size);
      }
      w.cells(
        spec.columns.map((c, i) => {
          if (i === 0) return '合计';
          if (i === 1) return `${n}${spec.unit}${left ? `（不含未生效${left}${spec.unit}）` : ''}`;
          return c.money && !c.noTotal ? moneyCell(sums[i]!.toFixed(2)) : null;
        }),
        true,
      );
    },
  );
}
