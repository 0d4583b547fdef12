import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Input, Select, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { formatMoney } from '@portal/contract/format';
import { isRealDate } from '@portal/contract/fields';
import {
  LEDGER_MENUS,
  STATEMENT_KIND_LABELS,
  type StatementInput,
  type StatementLine,
} from '@portal/contract/ledger';
import { buttonCode } from '@portal/contract/menus';
import { codeColumn, moneyColumn } from '../../shared/list/columns';
import { useCompanyDict } from '../../shared/company/api';
import { useBizDate } from '../../shared/bizdate/api';
import { useButtons } from '../../shared/permission/use-buttons';
import { ApiError } from '../../shared/request/http';
import type { ScreenProps } from '../../shared/ui/screen';
import { ledgerApi, ledgerQueries } from './api';

const COLUMNS: TableColumnsType<StatementLine> = [
  { title: '日期', dataIndex: 'date', key: 'date', width: 110 },
  { title: '业务类型', key: 'kind', width: 100, render: (_, r) => STATEMENT_KIND_LABELS[r.kind] },
  codeColumn('单据编号', 'docCode', { width: 130 }),
  { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', width: 130 },
  moneyColumn('放款本金', 'disbursed'),
  moneyColumn('实付金额', 'netPaid'),
  moneyColumn('回款金额', 'received'),
  moneyColumn('本金', 'principal'),
  moneyColumn('利息', 'interest'),
  moneyColumn('费用', 'fee'),
  moneyColumn('罚息', 'penalty'),
  moneyColumn('本金余额', 'balance'),
  { title: '备注', dataIndex: 'remark', key: 'remark' },
];

type Form = { custCode?: string; contBizCode?: string; dateFrom: string; dateTo: string };

/** Names the field of the first bad input, as the server's 400 would. */
function invalid(f: Form): string | undefined {
  if (!f.custCode && !f.contBizCode) return '请选择客户或合同';
  if (!isRealDate(f.dateFrom)) return '开始日期必须是有效日期（YYYY-MM-DD）';
  if (!isRealDate(f.dateTo)) return '结束日期必须是有效日期（YYYY-MM-DD）';
  if (f.dateFrom > f.dateTo) return '开始日期不能晚于结束日期';
  return undefined;
}

/** 客户对账单: opening balance, disbursements, receipts by component, reversals, closing balance. */
export default function StatementPage(_props: ScreenProps) {
  const bizDate = useBizDate().data?.businessDate;
  const customers = useCompanyDict(true);
  const buttons = useButtons(LEDGER_MENUS.statement);
  const canExport = buttons.has(buttonCode(LEDGER_MENUS.statement, 'export'));
  const canPrint = buttons.has(buttonCode(LEDGER_MENUS.statement, 'print'));
  const [form, setForm] = useState<Form>({ dateFrom: '', dateTo: '' });
  const [applied, setApplied] = useState<StatementInput>();
  const [error, setError] = useState<string>();
  // Until the user types dates, the period is the business date's month so far.
  const dateTo = form.dateTo || bizDate || '';
  const dateFrom = form.dateFrom || (dateTo ? `${dateTo.slice(0, 8)}01` : '');
  const current: Form = { ...form, dateFrom, dateTo };
  const contracts = useQuery(ledgerQueries.contractsOf(form.custCode));
  const q = useQuery(ledgerQueries.statement(applied));
  const run = (then?: (s: StatementInput) => Promise<unknown>) => {
    const bad = invalid(current);
    setError(bad);
    if (bad) return;
    const body: StatementInput = {
      custCode: current.custCode,
      contBizCode: current.contBizCode,
      dateFrom: current.dateFrom,
      dateTo: current.dateTo,
    };
    setApplied(body);
    if (then)
      then(body).catch((err: unknown) => {
        if (!(err instanceof ApiError)) throw err;
      });
  };
  const s = q.data;
  return (
    <Card data-testid="statement" title="客户对账单">
      <Space wrap>
        <Select
          aria-label="客户"
          data-testid="statement-customer"
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="选择客户"
          style={{ width: 260 }}
          value={form.custCode}
          onChange={(v: string | undefined) =>
            setForm((f) => ({ ...f, custCode: v, contBizCode: undefined }))
          }
          options={(customers.data ?? []).map((c) => ({ value: c.code, label: c.label }))}
        />
        <Select
          aria-label="合同"
          allowClear
          placeholder="全部合同"
          style={{ width: 220 }}
          value={form.contBizCode}
          disabled={!form.custCode}
          onChange={(v: string | undefined) => setForm((f) => ({ ...f, contBizCode: v }))}
          options={(contracts.data?.list ?? []).map((c) => ({
            value: c.contBizCode,
            label: `${c.contractNo}（${c.contBizCode}）`,
          }))}
        />
        <Input
          aria-label="开始日期"
          addonBefore="期间从"
          style={{ width: 200 }}
          value={dateFrom}
          onChange={(e) => setForm((f) => ({ ...f, dateFrom: e.target.value.trim() }))}
        />
        <Input
          aria-label="结束日期"
          addonBefore="至"
          style={{ width: 170 }}
          value={dateTo}
          onChange={(e) => setForm((f) => ({ ...f, dateTo: e.target.value.trim() }))}
        />
        <Button type="primary" onClick={() => run()}>
          查询
        </Button>
        {canExport ? (
          <Button
            icon={<DownloadOutlined />}
            data-testid="statement-export"
            onClick={() => run((b) => ledgerApi.statementExport(b))}
          >
            导出Excel
          </Button>
        ) : null}
        {canPrint ? (
          <>
            <Button
              icon={<PrinterOutlined />}
              data-testid="statement-pdf"
              disabled={!form.custCode}
              onClick={() => run((b) => ledgerApi.statementPdf({ ...b, custCode: form.custCode! }))}
            >
              下载PDF
            </Button>
            <Button
              disabled={!form.custCode}
              onClick={() => run((b) => ledgerApi.statementHtml({ ...b, custCode: form.custCode! }))}
            >
              打印预览
            </Button>
          </>
        ) : null}
      </Space>
      {error ? (
        <div>
          <Typography.Text type="danger" data-testid="statement-error">
            {error}
          </Typography.Text>
        </div>
      ) : null}
      {s ? (
        <>
          <Descriptions size="small" column={3} bordered style={{ marginTop: 16 }}>
            <Descriptions.Item label="客户">{s.custName}</Descriptions.Item>
            <Descriptions.Item label="合同">{s.contractNo ?? '全部合同'}</Descriptions.Item>
            <Descriptions.Item label="期间">
              {s.dateFrom} 至 {s.dateTo}
            </Descriptions.Item>
            <Descriptions.Item label="期初本金余额">
              <span data-testid="statement-opening">{formatMoney(s.opening)}</span>
            </Descriptions.Item>
            <Descriptions.Item label="期末本金余额">
              <span data-testid="statement-closing">{formatMoney(s.closing)}</span>
            </Descriptions.Item>
            <Descriptions.Item label="大写">{s.closingCapitals}</Descriptions.Item>
          </Descriptions>
          <Table<StatementLine>
            size="small"
            style={{ marginTop: 16 }}
            rowKey={(r) => `${r.kind}/${r.docCode}`}
            columns={COLUMNS}
            dataSource={s.lines}
            pagination={false}
            summary={() => (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={4}>
                  <strong>本期合计 {s.lines.length} 笔</strong>
                </Table.Summary.Cell>
                {(
                  ['disbursed', 'netPaid', 'received', 'principal', 'interest', 'fee', 'penalty'] as const
                ).map((k, i) => (
                  <Table.Summary.Cell key={k} index={i + 4} align="right">
                    {formatMoney(s.totals[k])}
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={11} colSpan={2} />
              </Table.Summary.Row>
            )}
          />
        </>
      ) : null}
    </Card>
  );
}
