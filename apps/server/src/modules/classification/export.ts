import Decimal from 'decimal.js';
import type { FastifyReply } from 'fastify';
import {
  ASSET_CLASS_LABELS,
  CLASS_FILE_NAME,
  UNCLASSIFIED_LABEL,
  type AssetClass,
  type ClassListFilters,
  type ClassRow,
} from '@portal/contract/classification';
import type { ScopeUser } from '../../platform/auth/data-scope';
import type { Executor } from '../../platform/db/client';
import { moneyCell, streamSheet, type XlsxColumn } from '../../platform/http/xlsx';
import { classBatch } from './queries';

const label = (c: AssetClass | null) => (c ? ASSET_CLASS_LABELS[c] : UNCLASSIFIED_LABEL);

const COLUMNS: XlsxColumn<ClassRow>[] = [
  { header: '合同编号', width: 15, value: (r) => r.contBizCode },
  { header: '合同号', width: 18, value: (r) => r.contractNo },
  { header: '客户名称', width: 28, value: (r) => r.custName },
  { header: '本金余额', width: 16, money: true, value: (r) => moneyCell(r.principalOutstanding) },
  { header: '坏账准备', width: 16, money: true, value: (r) => moneyCell(r.provision) },
  { header: '逾期天数', width: 10, value: (r) => r.overdueDays },
  { header: '建议分类', width: 10, value: (r) => label(r.proposedClass) },
  { header: '当前分类', width: 10, value: (r) => label(r.assetClass) },
  { header: '分类日期', width: 12, value: (r) => r.classDate },
  { header: '调整单号', width: 15, value: (r) => r.adjBizCode },
  { header: '待审调整单', width: 15, value: (r) => r.openAdjBizCode },
];

/**
 * The 五级分类 list as xlsx (docs/classification.md "Export"): a title row with the business date,
 * the list's rows with its filters, most overdue first, in batches, and a 合计 row (count and
 * 本金余额). The first batch is read before any byte is sent, so a failure there answers as JSON.
 */
export async function streamClasses(
  reply: FastifyReply,
  ex: Executor,
  q: ClassListFilters,
  user: ScopeUser,
  today: string,
): Promise<void> {
  let batch = await classBatch(ex, q, user, today, null);
  streamSheet(
    reply,
    {
      fileName: CLASS_FILE_NAME,
      sheetName: '五级分类',
      columns: COLUMNS,
      titles: [`五级分类  分类日期：${today}`],
      freeze: true,
      what: 'classification',
    },
    async (w) => {
      let n = 0;
      let total = new Decimal(0);
      let provision = new Decimal(0);
      for (;;) {
        for (const r of batch.rows) {
          w.record(r);
          n++;
          total = total.plus(r.principalOutstanding);
          provision = provision.plus(r.provision);
        }
        if (batch.next === null) break;
        await w.drained();
        batch = await classBatch(ex, q, user, today, batch.next);
      }
      w.cells(
        [
          '合计',
          `${n}笔`,
          null,
          moneyCell(total.toFixed(2)),
          moneyCell(provision.toFixed(2)),
          ...COLUMNS.slice(5).map(() => null),
        ],
        true,
      );
    },
  );
}
