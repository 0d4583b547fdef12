import type { FastifyReply } from 'fastify';
import { ASSET_CLASS_LABELS, UNCLASSIFIED_LABEL } from '@portal/contract/classification';
import { PRODUCT_LABELS, RECOURSE_LABELS } from '@portal/contract/credit';
import { OVERDUE_BUCKET_LABELS } from '@portal/contract/ledger';
import { REGULATOR_FILE_NAME, type RegulatorReport } from '@portal/contract/regulator';
import { moneyCell, streamSheet, type XlsxColumn } from '../../platform/http/xlsx';

type Line = [string, string, number | null, string | null, string | null, string | null];

const COLUMNS: XlsxColumn<Line>[] = [
  { header: '项目', width: 22, value: (l) => l[0] },
  { header: '类别', width: 30, value: (l) => l[1] },
  { header: '笔数', width: 8, value: (l) => l[2] },
  { header: '本金余额（元）', width: 18, money: true, value: (l) => moneyCell(l[3]) },
  { header: '其他金额（元）', width: 18, money: true, value: (l) => moneyCell(l[4]) },
  { header: '占比（%）', width: 10, value: (l) => l[5] },
];

/**
 * 监管报表.xlsx: the screen's sections one under the other, each line 项目 / 类别 / 笔数 / 本金余额 /
 * 其他金额 (named in 类别) / 占比, money as numbers (docs/ledger.md "The regulator's figures").
 */
export function streamRegulator(reply: FastifyReply, r: RegulatorReport): void {
  const lines: Line[] = [
    ...r.byProduct.map((b): Line => [
      '期末余额',
      `${PRODUCT_LABELS[b.product]}·${RECOURSE_LABELS[b.recourse]}（其他金额：应收利息）`,
      b.contracts,
      b.principal,
      b.interest,
      null,
    ]),
    [
      '期末余额',
      '合计（其他金额：应收利息）',
      r.totals.contracts,
      r.totals.principal,
      r.totals.interest,
      '100.00',
    ],
    [
      '本月新增业务',
      '本月放款（本金余额：融资金额；其他金额：实际放款）',
      r.newBusiness.contracts,
      r.newBusiness.financing,
      r.newBusiness.loanNet,
      null,
    ],
    ...r.overdue.map((o): Line => [
      '逾期分布',
      `${OVERDUE_BUCKET_LABELS[o.bucket]}（其他金额：逾期金额）`,
      o.contracts,
      o.principal,
      o.overdueAmount,
      null,
    ]),
    ...r.classes.map((c): Line => [
      '五级分类',
      c.assetClass ? ASSET_CLASS_LABELS[c.assetClass] : UNCLASSIFIED_LABEL,
      c.contracts,
      c.principal,
      null,
      null,
    ]),
    ...r.topDebtors.map((d): Line => [
      `前十大债务人 第${d.rank}名`,
      d.debtor,
      d.contracts,
      d.principal,
      null,
      d.share,
    ]),
    [
      '前十大债务人',
      '合计',
      r.topDebtors.reduce((n, d) => n + d.contracts, 0),
      null,
      null,
      r.topDebtorsShare,
    ],
    [
      '关联方业务',
      `关联方客户${r.relatedParty.customers}户（其他金额：应收利息）`,
      r.relatedParty.contracts,
      r.relatedParty.principal,
      r.relatedParty.interest,
      r.relatedParty.share,
    ],
  ];
  streamSheet(
    reply,
    {
      fileName: `${REGULATOR_FILE_NAME}_${r.month}.xlsx`,
      sheetName: '监管报表',
      columns: COLUMNS,
      titles: [`商业保理监管报表  报表月份：${r.month}  数据日期：${r.asOf}`],
      freeze: true,
      what: 'regulator xlsx',
    },
    async (w) => {
      for (const l of lines) w.record(l);
    },
  );
}
