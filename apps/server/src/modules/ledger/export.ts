import { ASSET_CLASS_LABELS, UNCLASSIFIED_LABEL } from '@portal/contract/classification';
import type { FastifyReply } from 'fastify';
import {
  LEDGER_FILE_NAME,
  LEDGER_STATE_LABELS,
  STATEMENT_FILE_NAME,
  STATEMENT_KIND_LABELS,
  type LedgerRow,
  type LedgerTotals,
  type Statement,
} from '@portal/contract/ledger';
import { PRODUCT_LABELS } from '@portal/contract/credit';
import { METHOD_LABELS, type Method } from '@portal/contract/plan/rule';
import {
  moneyCell as num,
  streamSheet,
  type XlsxCell as Cell,
  type XlsxColumn as Column,
} from '../../platform/http/xlsx';

const LEDGER_COLUMNS: Column<LedgerRow>[] = [
  { header: '合同编号', width: 15, value: (r) => r.contBizCode },
  { header: '合同号', width: 18, value: (r) => r.contractNo },
  { header: '客户（卖方）', width: 28, value: (r) => r.custName },
  { header: '买方（债务人）', width: 28, value: (r) => r.debtorName },
  { header: '产品', width: 12, value: (r) => PRODUCT_LABELS[r.product] ?? r.product },
  { header: '转让应收账款', width: 16, money: true, value: (r) => num(r.receivablesAmount) },
  { header: '融资金额', width: 16, money: true, value: (r) => num(r.financingAmount) },
  { header: '放款日', width: 12, value: (r) => r.loanDate },
  { header: '实际放款金额', width: 16, money: true, value: (r) => num(r.loanNetAmount) },
  { header: '起始日', width: 12, value: (r) => r.startDate },
  { header: '到期日', width: 12, value: (r) => r.maturityDate },
  { header: '年利率', width: 10, value: (r) => r.annualRate },
  { header: '计息规则', width: 18, value: (r) => r.ruleName },
  { header: '还款方式', width: 18, value: (r) => METHOD_LABELS[r.method as Method] ?? r.method },
  { header: '本金余额', width: 16, money: true, value: (r) => num(r.principalOutstanding) },
  { header: '应收利息', width: 14, money: true, value: (r) => num(r.interestOutstanding) },
  { header: '未到期利息', width: 14, money: true, value: (r) => num(r.interestNotDue) },
  { header: '表外利息', width: 14, money: true, value: (r) => num(r.interestOffBalance) },
  { header: '应收费用', width: 14, money: true, value: (r) => num(r.feeOutstanding) },
  { header: '逾期天数', width: 10, value: (r) => r.overdueDays },
  { header: '逾期金额', width: 14, money: true, value: (r) => num(r.overdueAmount) },
  { header: '应收罚息', width: 14, money: true, value: (r) => num(r.overduePenalty) },
  { header: '下一还款日', width: 12, value: (r) => r.nextDueDate },
  { header: '下一期应还', width: 14, money: true, value: (r) => num(r.nextDueAmount) },
  { header: '本期回款', width: 14, money: true, value: (r) => num(r.periodReceived) },
  { header: '本期冲红', width: 14, money: true, value: (r) => num(r.periodReversed) },
  { header: '授信额度编号', width: 15, value: (r) => r.lineCode },
  { header: '所属机构', width: 16, value: (r) => r.deptName },
  { header: '台账状态', width: 10, value: (r) => LEDGER_STATE_LABELS[r.ledgerState] },
  {
    header: '五级分类',
    width: 10,
    value: (r) => (r.classification ? ASSET_CLASS_LABELS[r.classification] : UNCLASSIFIED_LABEL),
  },
];

/** Which totals go under which money column of the ledger. */
const LEDGER_TOTALS: Partial<Record<string, keyof LedgerTotals>> = {
  转让应收账款: 'receivablesAmount',
  融资金额: 'financingAmount',
  实际放款金额: 'loanNetAmount',
  本金余额: 'principalOutstanding',
  应收利息: 'interestOutstanding',
  未到期利息: 'interestNotDue',
  表外利息: 'interestOffBalance',
  应收费用: 'feeOutstanding',
  逾期金额: 'overdueAmount',
  应收罚息: 'overduePenalty',
  本期回款: 'periodReceived',
  本期冲红: 'periodReversed',
};

/**
 * The ledger streamed as xlsx: a title row with the date and period, the header, one row per
 * contract in batches (memory holds one batch), and a 合计 row. The first batch is read before any
 * byte is sent, so a failure there still answers as JSON.
 */
export async function streamLedger(
  reply: FastifyReply,
  ledger: {
    asOf: string;
    dateFrom: string;
    /** The totals of the rows walked so far: asked once the walk has ended. */
    totals: () => LedgerTotals;
    next: (afterId: number | null) => Promise<{ rows: LedgerRow[]; lastId: number | null }>;
  },
): Promise<void> {
  let batch = await ledger.next(null);
  streamSheet(
    reply,
    {
      fileName: LEDGER_FILE_NAME,
      sheetName: '保理业务台账',
      columns: LEDGER_COLUMNS,
      titles: [`保理业务台账  台账日期：${ledger.asOf}  本期：${ledger.dateFrom} 至 ${ledger.asOf}`],
      freeze: true,
      what: 'ledger',
    },
    async (w) => {
      for (;;) {
        for (const r of batch.rows) w.record(r);
        if (batch.lastId === null) break;
        await w.drained();
        batch = await ledger.next(batch.lastId);
      }
      const t = ledger.totals();
      w.cells(
        LEDGER_COLUMNS.map((c, i) => {
          if (i === 0) return '合计';
          if (i === 1) return `${t.contracts}笔`;
          const key = LEDGER_TOTALS[c.header];
          return key ? num(t[key] as string) : null;
        }),
        true,
      );
    },
  );
}

type StatementRow = Statement['lines'][number];
const STATEMENT_COLUMNS: Column<StatementRow>[] = [
  { header: '日期', width: 12, value: (r) => r.date },
  { header: '业务类型', width: 12, value: (r) => STATEMENT_KIND_LABELS[r.kind] },
  { header: '单据编号', width: 15, value: (r) => r.docCode },
  { header: '合同号', width: 18, value: (r) => r.contractNo },
  { header: '放款本金', width: 16, money: true, value: (r) => num(r.disbursed) },
  { header: '实付金额', width: 16, money: true, value: (r) => num(r.netPaid) },
  { header: '放款扣收', width: 14, money: true, value: (r) => num(r.deducted) },
  { header: '回款金额', width: 16, money: true, value: (r) => num(r.received) },
  { header: '其中本金', width: 14, money: true, value: (r) => num(r.principal) },
  { header: '其中利息', width: 14, money: true, value: (r) => num(r.interest) },
  { header: '其中费用', width: 14, money: true, value: (r) => num(r.fee) },
  { header: '其中罚息', width: 14, money: true, value: (r) => num(r.penalty) },
  { header: '本金余额', width: 16, money: true, value: (r) => num(r.balance) },
  { header: '备注', width: 24, value: (r) => r.remark },
];

/** The statement as xlsx: title, 期初余额, movements, 本期合计, 期末余额 (with 大写金额). */
export function sendStatement(reply: FastifyReply, s: Statement): void {
  streamSheet(
    reply,
    {
      fileName: STATEMENT_FILE_NAME,
      sheetName: '客户对账单',
      columns: STATEMENT_COLUMNS,
      titles: [
        `客户对账单  客户：${s.custName}（${s.custCode}）${s.contractNo ? `  合同：${s.contractNo}` : ''}`,
        `期间：${s.dateFrom} 至 ${s.dateTo}`,
      ],
      what: 'statement',
    },
    (w) => {
      const blank = STATEMENT_COLUMNS.map(() => null as Cell);
      const balanceAt = STATEMENT_COLUMNS.findIndex((c) => c.header === '本金余额');
      const withBalance = (label: string, v: string) => {
        const row = [...blank];
        row[0] = label;
        row[balanceAt] = num(v);
        return row;
      };
      w.cells(withBalance('期初余额', s.opening), true);
      for (const l of s.lines) w.record(l);
      const t = s.totals;
      w.cells(
        [
          '本期合计',
          `${s.lines.length}笔`,
          null,
          null,
          num(t.disbursed),
          num(t.netPaid),
          num(t.deducted),
          num(t.received),
          num(t.principal),
          num(t.interest),
          num(t.fee),
          num(t.penalty),
          null,
          null,
        ],
        true,
      );
      w.cells(withBalance('期末余额', s.closing), true);
      w.line(`期末余额（大写）：${s.closingCapitals}`);
    },
  );
}
