import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { formatMoney } from '@portal/contract/format';
import { isRealDate } from '@portal/contract/fields';
import { PRODUCT_LABELS, PRODUCTS } from '@portal/contract/credit';
import {
  LEDGER_MENUS,
  LEDGER_STATE_LABELS,
  LEDGER_STATES,
  OVERDUE_BUCKET_LABELS,
  OVERDUE_BUCKETS,
  type LedgerExportQuery,
  type LedgerRow,
  type LedgerTotals,
} from '@portal/contract/ledger';
import { buttonCode } from '@portal/contract/menus';
import { ASSET_CLASS_LABELS, ASSET_CLASSES, UNCLASSIFIED_LABEL } from '@portal/contract/classification';
import { ClassSummaryCard } from '../../shared/classification/ClassSummary';
import { METHOD_LABELS, type Method } from '@portal/contract/plan/rule';
import { codeColumn, moneyColumn } from '../../shared/list/columns';
import { useCompanyDict } from '../../shared/company/api';
import { useButtons } from '../../shared/permission/use-buttons';
import { ApiError } from '../../shared/request/http';
import type { ScreenProps } from '../../shared/ui/screen';
import { ledgerApi, ledgerQueries } from './api';

type Filters = Partial<LedgerExportQuery>;

const DATE_FIELDS: [keyof Filters, string][] = [
  ['asOf', '台账日期'],
  ['dateFrom', '期间开始日期'],
  ['loanDateStart', '放款日开始'],
  ['loanDateEnd', '放款日结束'],
];

/** Blank fields dropped, text trimmed; a malformed date is named before anything is sent. */
function cleanFilters(values: Record<string, unknown>): { filters: Filters; error?: string } {
  const filters: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const t = typeof v === 'string' ? v.trim() : v;
    if (t !== undefined && t !== null && t !== '') filters[k] = t;
  }
  for (const [key, label] of DATE_FIELDS) {
    const v = filters[key];
    if (typeof v === 'string' && !isRealDate(v))
      return { filters: {}, error: `${label}必须是有效日期（YYYY-MM-DD）` };
  }
  return { filters: filters as Filters };
}

const text = (title: string, key: keyof LedgerRow, width?: number) => ({ title, dataIndex: key, key, width });

const COLUMNS: TableColumnsType<LedgerRow> = [
  codeColumn('合同编号', 'contBizCode', { fixed: 'left', width: 130 }),
  text('合同号', 'contractNo', 130),
  text('客户（卖方）', 'custName', 200),
  text('买方（债务人）', 'debtorName', 200),
  { title: '产品', key: 'product', width: 100, render: (_, r) => PRODUCT_LABELS[r.product] ?? r.product },
  moneyColumn('转让应收账款', 'receivablesAmount', { width: 140 }),
  moneyColumn('融资金额', 'financingAmount', { width: 140 }),
  text('放款日', 'loanDate', 110),
  moneyColumn('实际放款金额', 'loanNetAmount', { width: 140 }),
  text('到期日', 'maturityDate', 110),
  {
    title: '利率/规则',
    key: 'rule',
    width: 200,
    render: (_, r) =>
      `${r.annualRate ? `${(Number(r.annualRate) * 100).toFixed(2)}%` : ''} ${r.ruleName}（${
        METHOD_LABELS[r.method as Method] ?? r.method
      }）`,
  },
  moneyColumn('本金余额', 'principalOutstanding', { width: 140 }),
  moneyColumn('坏账准备', 'provision', { width: 120 }),
  moneyColumn('应收利息', 'interestOutstanding', { width: 120 }),
  moneyColumn('未到期利息', 'interestNotDue', { width: 120 }),
  moneyColumn('表外利息', 'interestOffBalance', { width: 120 }),
  { title: '逾期天数', dataIndex: 'overdueDays', key: 'overdueDays', width: 90, align: 'right' },
  moneyColumn('逾期金额', 'overdueAmount', { width: 130 }),
  moneyColumn('应收罚息', 'overduePenalty', { width: 120 }),
  text('下一还款日', 'nextDueDate', 110),
  moneyColumn('下一期应还', 'nextDueAmount', { width: 130 }),
  moneyColumn('本期回款', 'periodReceived', { width: 130 }),
  moneyColumn('本期冲红', 'periodReversed', { width: 120 }),
  text('授信额度编号', 'lineCode', 130),
  text('所属机构', 'deptName', 120),
  {
    title: '状态',
    key: 'ledgerState',
    width: 90,
    render: (_, r) => (
      <Tag color={r.ledgerState === 'active' ? (r.overdueDays > 0 ? 'red' : 'blue') : 'default'}>
        {LEDGER_STATE_LABELS[r.ledgerState]}
      </Tag>
    ),
  },
  {
    title: '五级分类',
    key: 'classification',
    width: 90,
    render: (_, r) => (r.classification ? ASSET_CLASS_LABELS[r.classification] : UNCLASSIFIED_LABEL),
  },
];

/** Which totals sit under which column (the 合计 row). */
const TOTAL_OF: Partial<Record<string, keyof LedgerTotals>> = {
  receivablesAmount: 'receivablesAmount',
  financingAmount: 'financingAmount',
  loanNetAmount: 'loanNetAmount',
  principalOutstanding: 'principalOutstanding',
  interestOutstanding: 'interestOutstanding',
  interestNotDue: 'interestNotDue',
  interestOffBalance: 'interestOffBalance',
  overdueAmount: 'overdueAmount',
  overduePenalty: 'overduePenalty',
  periodReceived: 'periodReceived',
  periodReversed: 'periodReversed',
};

/** 保理业务台账: one row per contract as of a business date, with the totals of every match. */
export default function LedgerPage(_props: ScreenProps) {
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: 20 });
  const [error, setError] = useState<string>();
  const customers = useCompanyDict(true);
  const canExport = useButtons(LEDGER_MENUS.portfolio).has(buttonCode(LEDGER_MENUS.portfolio, 'export'));
  const q = useQuery(ledgerQueries.portfolio(filters, paging));
  const search = () => {
    const { filters: next, error: bad } = cleanFilters(form.getFieldsValue() as Record<string, unknown>);
    setError(bad);
    if (bad) return;
    setFilters(next);
    setPaging((p) => ({ ...p, pageNum: 1 }));
  };
  const exportXlsx = async () => {
    try {
      await ledgerApi.export(filters);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  };
  const page = q.data;
  const totals = page?.totals;
  return (
    <Card data-testid="ledger" title="保理业务台账">
      <Form form={form} layout="inline" onFinish={search} style={{ rowGap: 8 }}>
        <Form.Item name="asOf" label="台账日期">
          <Input aria-label="台账日期" placeholder="默认营业日" style={{ width: 130 }} allowClear />
        </Form.Item>
        <Form.Item name="dateFrom" label="本期自">
          <Input aria-label="期间开始日期" placeholder="默认当月1日" style={{ width: 130 }} allowClear />
        </Form.Item>
        <Form.Item name="custCode" label="客户">
          <Select
            aria-label="客户"
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="全部"
            style={{ width: 220 }}
            options={(customers.data ?? []).map((c) => ({ value: c.code, label: c.label }))}
          />
        </Form.Item>
        <Form.Item name="product" label="产品">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 120 }}
            options={PRODUCTS.map((p) => ({ value: p, label: PRODUCT_LABELS[p] }))}
          />
        </Form.Item>
        <Form.Item name="ledgerState" label="状态">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 110 }}
            options={LEDGER_STATES.map((s) => ({ value: s, label: LEDGER_STATE_LABELS[s] }))}
          />
        </Form.Item>
        <Form.Item name="overdueBucket" label="逾期">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 150 }}
            options={OVERDUE_BUCKETS.map((b) => ({ value: b, label: OVERDUE_BUCKET_LABELS[b] }))}
          />
        </Form.Item>
        <Form.Item name="assetClass" label="五级分类">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 110 }}
            options={ASSET_CLASSES.map((c) => ({ value: c, label: ASSET_CLASS_LABELS[c] }))}
          />
        </Form.Item>
        <Form.Item name="loanDateStart" label="放款日">
          <Input aria-label="放款日开始" placeholder="开始" style={{ width: 120 }} allowClear />
        </Form.Item>
        <Form.Item name="loanDateEnd" label="至">
          <Input aria-label="放款日结束" placeholder="结束" style={{ width: 120 }} allowClear />
        </Form.Item>
        <Form.Item name="orgCode" label="机构编号">
          <Input aria-label="机构编号" placeholder="含下级机构" style={{ width: 140 }} allowClear />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
            {canExport ? (
              <Button
                icon={<DownloadOutlined />}
                data-testid="ledger-export"
                onClick={() => void exportXlsx()}
              >
                导出
              </Button>
            ) : null}
          </Space>
        </Form.Item>
      </Form>
      {error ? (
        <Typography.Text type="danger" data-testid="ledger-error">
          {error}
        </Typography.Text>
      ) : null}
      {page ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="ledger-as-of">
          台账日期 {page.asOf}，本期 {page.dateFrom} 至 {page.asOf}；金额单位：元
        </Typography.Paragraph>
      ) : null}
      <Table<LedgerRow>
        size="small"
        rowKey="contBizCode"
        loading={q.isFetching}
        columns={COLUMNS}
        dataSource={page?.list ?? []}
        scroll={{ x: 3440 }}
        pagination={{
          current: paging.pageNum,
          pageSize: paging.pageSize,
          total: page?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 笔`,
          onChange: (pageNum, pageSize) => setPaging({ pageNum, pageSize }),
        }}
        summary={() =>
          totals ? (
            <Table.Summary fixed>
              <Table.Summary.Row data-testid="ledger-totals">
                {COLUMNS.map((c, i) => {
                  const key = String(c.key);
                  const t = TOTAL_OF[key];
                  return (
                    <Table.Summary.Cell key={key} index={i} align={t ? 'right' : undefined}>
                      {i === 0 ? (
                        <strong>合计 {totals.contracts} 笔</strong>
                      ) : t ? (
                        formatMoney(totals[t] as string)
                      ) : null}
                    </Table.Summary.Cell>
                  );
                })}
              </Table.Summary.Row>
            </Table.Summary>
          ) : null
        }
      />
      {page ? (
        <div style={{ marginTop: 16 }}>
          <ClassSummaryCard asOf={page.asOf} month={page.asOf.slice(0, 7)} />
        </div>
      ) : null}
    </Card>
  );
}
