import Decimal from 'decimal.js';
import type { FastifyReply } from 'fastify';
import {
  COLLECTION_CHANNEL_LABELS,
  COLLECTION_FILE_NAME,
  COLLECTION_RESULT_LABELS,
  PROMISE_STATE_LABELS,
  type CollectionRow,
} from '@portal/contract/collections';
import { moneyCell, streamSheet, type XlsxColumn } from '../../platform/http/xlsx';

/** The worklist's columns, as the screen shows them (docs/collections.md "Export and print"). */
const COLUMNS: XlsxColumn<CollectionRow>[] = [
  { header: '合同编号', width: 15, value: (r) => r.contBizCode },
  { header: '合同号', width: 18, value: (r) => r.contractNo },
  { header: '客户名称', width: 28, value: (r) => r.custName },
  { header: '催收人', width: 10, value: (r) => r.assigneeName },
  { header: '逾期天数', width: 10, value: (r) => r.overdueDays },
  { header: '逾期期数', width: 10, value: (r) => r.overdueItems },
  { header: '逾期金额', width: 16, money: true, value: (r) => moneyCell(r.overdueAmount) },
  { header: '罚息', width: 14, money: true, value: (r) => moneyCell(r.penaltyAmount) },
  { header: '最近联系日期', width: 12, value: (r) => r.lastContactDate },
  {
    header: '最近联系方式',
    width: 10,
    value: (r) => (r.lastContactChannel ? COLLECTION_CHANNEL_LABELS[r.lastContactChannel] : null),
  },
  {
    header: '最近催收结果',
    width: 12,
    value: (r) => (r.lastContactResult ? COLLECTION_RESULT_LABELS[r.lastContactResult] : null),
  },
  { header: '承诺还款日期', width: 12, value: (r) => r.promiseDate },
  { header: '承诺还款金额', width: 16, money: true, value: (r) => moneyCell(r.promiseAmount) },
  {
    header: '承诺状态',
    width: 10,
    value: (r) => (r.promiseState ? PROMISE_STATE_LABELS[r.promiseState] : null),
  },
  { header: '下一步行动', width: 24, value: (r) => r.nextAction },
  { header: '下一步行动日期', width: 14, value: (r) => r.nextActionDate },
];

/** The worklist as xlsx: a title row with the business date, the rows, and a 合计 row. */
export function streamWorklist(reply: FastifyReply, rows: readonly CollectionRow[], asOf: string): void {
  streamSheet(
    reply,
    {
      fileName: COLLECTION_FILE_NAME,
      sheetName: '逾期催收',
      columns: COLUMNS,
      titles: [`逾期催收  营业日：${asOf}`],
      freeze: true,
      what: 'collection',
    },
    (w) => {
      for (const r of rows) w.record(r);
      const sum = (f: (r: CollectionRow) => string) =>
        rows.reduce((s, r) => s.plus(f(r)), new Decimal(0)).toFixed(2);
      w.cells(
        [
          '合计',
          `${rows.length}笔`,
          null,
          null,
          null,
          null,
          moneyCell(sum((r) => r.overdueAmount)),
          moneyCell(sum((r) => r.penaltyAmount)),
          ...COLUMNS.slice(8).map(() => null),
        ],
        true,
      );
    },
  );
}
