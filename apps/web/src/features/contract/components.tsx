import Decimal from 'decimal.js';
import { Descriptions, Table, Typography } from 'antd';
import {
  DISCLOSURE_LABELS,
  differsFromRule,
  DUE_KIND_LABELS,
  LOAN_STATE_LABELS,
  type ContractInfo,
  type ContractReceivable,
  type DueItem,
  type DueView,
  type PayerItem,
  type PlanItemView,
} from '@portal/contract/contract';
import type { PlanItem } from '@portal/contract/plan/schedule';
import { PRODUCT_LABELS, RECOURSE_LABELS } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { dateColumn, moneyColumn } from '../../shared/list/columns';

/** Σ of a money column as a 2-decimal string (exact decimals; the table's footer). */
export function sumOf<T>(rows: readonly T[], pick: (r: T) => string | null | undefined): string {
  return rows.reduce((s, r) => s.plus(pick(r) || 0), new Decimal(0)).toFixed(2);
}

type AnyPlanRow = PlanItem | PlanItemView;

/**
 * A plan's items with totals; paid and status columns when the items are stored ones, with the
 * business date their outstanding, overdue and penalty are as of (`asOf`), said above the table
 * and in the penalty column as the write-off screen says its own (docs/money-rules.md).
 */
export function PlanTable({
  items,
  testId = 'plan-table',
  asOf,
}: {
  items: readonly AnyPlanRow[];
  testId?: string;
  asOf?: string | undefined;
}) {
  const stored = items.length > 0 && 'principalPaid' in items[0]!;
  const dated = stored && asOf;
  return (
    <Table<AnyPlanRow>
      data-testid={testId}
      size="small"
      rowKey="period"
      pagination={false}
      title={
        dated
          ? () => (
              <span data-testid="plan-as-of">
                金额截至 {asOf}（营业日；待还、逾期天数、罚息与台账、核销、到期提醒同日一致）
              </span>
            )
          : undefined
      }
      // Wide plans scroll inside their card instead of overflowing it.
      scroll={{ x: 'max-content' }}
      dataSource={[...items]}
      columns={[
        { title: '期次', dataIndex: 'period', key: 'period', width: 64 },
        dateColumn('起息日', 'startDate'),
        dateColumn('还款日', 'dueDate'),
        { title: '天数', dataIndex: 'days', key: 'days', width: 64, align: 'right' },
        moneyColumn('本金', 'principal'),
        moneyColumn('利息', 'interest'),
        moneyColumn('费用', 'fee'),
        moneyColumn('合计', 'total'),
        ...(stored
          ? [
              moneyColumn<AnyPlanRow>('已还本金', 'principalPaid'),
              moneyColumn<AnyPlanRow>('已还利息', 'interestPaid'),
              moneyColumn<AnyPlanRow>(dated ? `罚息（截至${asOf}）` : '罚息', 'penalty'),
              moneyColumn<AnyPlanRow>('已还罚息', 'penaltyPaid'),
              moneyColumn<AnyPlanRow>('待还', 'outstanding'),
              {
                title: '状态',
                key: 'status',
                render: (_: unknown, r: AnyPlanRow) => ('status' in r ? r.status : ''),
              },
            ]
          : []),
      ]}
      summary={(rows) => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0} colSpan={4}>
            合计
          </Table.Summary.Cell>
          <Table.Summary.Cell index={4} align="right">
            <span data-testid="plan-total-principal">{formatMoney(sumOf(rows, (r) => r.principal))}</span>
          </Table.Summary.Cell>
          <Table.Summary.Cell index={5} align="right">
            {formatMoney(sumOf(rows, (r) => r.interest))}
          </Table.Summary.Cell>
          <Table.Summary.Cell index={6} align="right">
            {formatMoney(sumOf(rows, (r) => r.fee))}
          </Table.Summary.Cell>
          <Table.Summary.Cell index={7} align="right">
            {formatMoney(sumOf(rows, (r) => r.total))}
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}

export function ReceivablesTable({ rows }: { rows: readonly ContractReceivable[] }) {
  return (
    <Table<ContractReceivable>
      size="small"
      rowKey={(r) => `${r.invoiceCode}/${r.invoiceNo}`}
      pagination={false}
      dataSource={[...rows]}
      columns={[
        { title: '发票代码', dataIndex: 'invoiceCode', key: 'invoiceCode' },
        { title: '发票号码', dataIndex: 'invoiceNo', key: 'invoiceNo' },
        dateColumn('开票日期', 'invoiceDate'),
        moneyColumn('发票金额', 'amount'),
        { title: '债务人', dataIndex: 'debtorName', key: 'debtorName' },
        dateColumn('到期日', 'dueDate'),
      ]}
    />
  );
}

export function PayersTable({ rows, testId }: { rows: readonly PayerItem[]; testId?: string }) {
  return (
    <Table<PayerItem>
      data-testid={testId}
      size="small"
      rowKey={(r) => `${r.payerName}/${r.accountNo ?? ''}`}
      pagination={false}
      dataSource={[...rows]}
      columns={[
        { title: '付款方名称', dataIndex: 'payerName', key: 'payerName' },
        { title: '户名', dataIndex: 'accountName', key: 'accountName' },
        { title: '账号', dataIndex: 'accountNo', key: 'accountNo' },
        { title: '开户行', dataIndex: 'bankName', key: 'bankName' },
      ]}
    />
  );
}

/**
 * A contract's fees; stored ones beside the rule's figure, an amount other than it marked, with the
 * maker's reason (docs/money-lifecycle.md "Implied up-front items").
 */
export function DuesTable({ rows }: { rows: readonly (DueItem | DueView)[] }) {
  const ruleOf = (r: DueItem | DueView) => ('ruleAmount' in r ? r.ruleAmount : null);
  // Stored dues carry the rule's figure; a change's proposal does not.
  const stored = rows.some((r) => 'ruleAmount' in r);
  return (
    <Table<DueItem | DueView>
      size="small"
      rowKey={(r) => `${r.kind}/${r.dueDate}/${r.amount}`}
      pagination={false}
      dataSource={[...rows]}
      columns={[
        {
          title: '费用类型',
          dataIndex: 'kind',
          key: 'kind',
          render: (k: DueItem['kind']) => DUE_KIND_LABELS[k],
        },
        {
          title: '金额',
          key: 'amount',
          align: 'right',
          render: (_: unknown, r) => (
            <Typography.Text type={differsFromRule(r.amount, ruleOf(r)) ? 'warning' : undefined}>
              {formatMoney(r.amount)}
            </Typography.Text>
          ),
        },
        ...(stored
          ? [
              {
                title: '规则金额',
                key: 'ruleAmount',
                align: 'right' as const,
                render: (_: unknown, r: DueItem | DueView) => {
                  const rule = ruleOf(r);
                  return rule === null ? '—' : formatMoney(rule);
                },
              },
            ]
          : []),
        { title: '原因', key: 'reason', render: (_: unknown, r) => r.reason ?? '' },
        dateColumn('应收日期', 'dueDate'),
        moneyColumn('已收', 'receivedAmount'),
      ]}
    />
  );
}

export function InfoDescriptions({ c }: { c: ContractInfo }) {
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} data-testid="contract-info">
      <Descriptions.Item label="合同编号">{c.bizCode}</Descriptions.Item>
      <Descriptions.Item label="合同号">{c.contractNo}</Descriptions.Item>
      <Descriptions.Item label="客户">{c.custName}</Descriptions.Item>
      <Descriptions.Item label="追索类型">{RECOURSE_LABELS[c.recourse]}</Descriptions.Item>
      <Descriptions.Item label="公开类型">{DISCLOSURE_LABELS[c.disclosure]}</Descriptions.Item>
      <Descriptions.Item label="产品">{PRODUCT_LABELS[c.product]}</Descriptions.Item>
      <Descriptions.Item label="核心企业">{c.coreCompName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="平台授信">{c.platCredBizCode}</Descriptions.Item>
      <Descriptions.Item label="占用额度">{c.lineCode}</Descriptions.Item>
      <Descriptions.Item label="应收账款金额">{formatMoney(c.receivablesAmount)}</Descriptions.Item>
      <Descriptions.Item label="融资比例">
        {new Decimal(c.financingRatio).times(100).toFixed(2)}%
      </Descriptions.Item>
      <Descriptions.Item label="融资金额">
        <span data-testid="info-financing">{formatMoney(c.financingAmount)}</span>
      </Descriptions.Item>
      <Descriptions.Item label="起始日">{c.startDate}</Descriptions.Item>
      <Descriptions.Item label="到期日">{c.maturityDate}</Descriptions.Item>
      <Descriptions.Item label="计息规则">{c.ruleName ?? c.ruleBizCode}</Descriptions.Item>
      <Descriptions.Item label="还款账户">
        {c.bankName ?? ''} {c.bankAccountNo ?? ''}
      </Descriptions.Item>
      <Descriptions.Item label="业务部门">{c.deptName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="业务经理">{c.managerName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="已占用额度">{formatMoney(c.occupiedAmount)}</Descriptions.Item>
      <Descriptions.Item label="放款">
        {c.loanDate
          ? `${c.loanDate} 实付 ${formatMoney(c.loanAmount)}${c.loanBizCode ? `（放款单 ${c.loanBizCode}）` : ''}`
          : LOAN_STATE_LABELS[c.loanState]}
      </Descriptions.Item>
      <Descriptions.Item label="备注">{c.remark ?? '—'}</Descriptions.Item>
    </Descriptions>
  );
}
