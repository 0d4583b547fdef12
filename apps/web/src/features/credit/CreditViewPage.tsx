import { useQuery } from '@tanstack/react-query';
import { Descriptions, Space, Table, Tabs, Tag } from 'antd';
import {
  CREDIT_PATHS,
  CURRENCY_LABELS,
  CYCLE_LABELS,
  GUARANTEE_MODE_LABELS,
  LINE_KIND_LABELS,
  MOVEMENT_LABELS,
  PRODUCT_LABELS,
  RECOURSE_LABELS,
  creditHistoryFileName,
  type FtRow,
  type HistoryRow,
  type ReceivableRow,
} from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { DOC_TYPES } from '@portal/contract/workflow';
import { FileList } from '../../shared/files/FileList';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { ExportButton } from '../../shared/list/ExportButton';
import { creditQueries } from './api';
import { UtilisationChart } from './components';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { docFrameProps, useDocCode } from '../../shared/workflow/doc-kind';
import { CREDIT_DOC } from './doc-kinds';
import { PrintButton } from '../../shared/print/PrintButton';
import { GuaranteeView } from './GuaranteeSection';

/** 授信查看: every section read-only, the line figures, the history, and 通过 / 驳回 while pending. */
export default function CreditViewPage() {
  const bizCode = useDocCode(CREDIT_DOC);
  const credit = useQuery(creditQueries.platform(bizCode));
  const ft = useQuery(creditQueries.ft(bizCode));
  const rec = useQuery(creditQueries.receivables(bizCode));
  const history = useQuery(creditQueries.history(bizCode));
  const files = useQuery(creditQueries.files(bizCode));
  const c = credit.data;
  const line = c?.line;
  return (
    <DocViewFrame
      testId="credit-view"
      title="授信查看"
      state={c?.state}
      tags={line?.frozen ? <Tag color="warning">已冻结</Tag> : null}
      actions={<PrintButton docCode={bizCode} types={['credit']} />}
      {...docFrameProps(CREDIT_DOC, bizCode)}
    >
      <Tabs
        items={[
          {
            key: 'platform',
            label: '平台授信',
            children: c ? (
              <>
                <Descriptions bordered size="small" column={3}>
                  <Descriptions.Item label="客户">{c.custName}</Descriptions.Item>
                  <Descriptions.Item label="授信总额度">{formatMoney(c.limitAmount)}</Descriptions.Item>
                  <Descriptions.Item label="币种">
                    {CURRENCY_LABELS[c.currency as keyof typeof CURRENCY_LABELS] ?? c.currency}
                  </Descriptions.Item>
                  <Descriptions.Item label="起始日">{c.startDate}</Descriptions.Item>
                  <Descriptions.Item label="到期日">{line?.endDate ?? c.endDate}</Descriptions.Item>
                  <Descriptions.Item label="额度类型">{CYCLE_LABELS[c.cycle]}</Descriptions.Item>
                  <Descriptions.Item label="产品">
                    {PRODUCT_LABELS[c.product as keyof typeof PRODUCT_LABELS] ?? c.product}
                  </Descriptions.Item>
                  <Descriptions.Item label="担保要求">
                    {GUARANTEE_MODE_LABELS[c.guaranteeMode]}
                  </Descriptions.Item>
                  <Descriptions.Item label="备注">{c.remark ?? '-'}</Descriptions.Item>
                </Descriptions>
                {line ? (
                  <Descriptions
                    bordered
                    size="small"
                    column={4}
                    style={{ marginTop: 16 }}
                    title={`平台额度 ${line.lineCode}`}
                    data-testid="platform-line"
                  >
                    <Descriptions.Item label="额度">{formatMoney(line.limitAmount)}</Descriptions.Item>
                    <Descriptions.Item label="已占用">{formatMoney(line.occupiedAmount)}</Descriptions.Item>
                    <Descriptions.Item label="已分配">{formatMoney(line.reservedAmount)}</Descriptions.Item>
                    <Descriptions.Item label="可用">{formatMoney(line.availableAmount)}</Descriptions.Item>
                  </Descriptions>
                ) : null}
                {line ? (
                  <div style={{ marginTop: 16 }}>
                    <UtilisationChart
                      height={240}
                      rows={[
                        {
                          custCode: c.custCode,
                          custName: c.custName,
                          limitAmount: line.limitAmount,
                          occupiedAmount: line.occupiedAmount,
                          reservedAmount: line.reservedAmount,
                          frozenAmount: line.frozen ? line.availableAmount : '0.00',
                          availableAmount: line.availableAmount,
                        },
                      ]}
                    />
                  </div>
                ) : null}
              </>
            ) : null,
          },
          {
            key: 'gua',
            label: '担保授信',
            children: <GuaranteeView bizCode={bizCode} state={c?.state} />,
          },
          {
            key: 'ft',
            label: '保理授信',
            children: (
              <Table<FtRow>
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={ft.data ?? []}
                columns={[
                  { title: '债务人', dataIndex: 'debtorName' },
                  moneyColumn('保理子额度', 'limitAmount'),
                  { title: '融资比例', dataIndex: 'financingRatio' },
                  {
                    title: '追索权',
                    dataIndex: 'recourse',
                    render: (v: keyof typeof RECOURSE_LABELS) => RECOURSE_LABELS[v],
                  },
                  { title: '额度编号', render: (_, r) => r.line?.lineCode ?? '-' },
                  {
                    title: '已占用',
                    align: 'right',
                    render: (_, r) => (r.line ? formatMoney(r.line.occupiedAmount) : '-'),
                  },
                  {
                    title: '可用',
                    align: 'right',
                    render: (_, r) => (r.line ? formatMoney(r.line.availableAmount) : '-'),
                  },
                ]}
              />
            ),
          },
          {
            key: 'rec',
            label: '应收账款',
            children: (
              <Table<ReceivableRow>
                size="small"
                rowKey="id"
                dataSource={rec.data ?? []}
                columns={[
                  { title: '发票代码', dataIndex: 'invoiceCode' },
                  { title: '发票号码', dataIndex: 'invoiceNo' },
                  dateColumn('开票日期', 'invoiceDate'),
                  moneyColumn('金额', 'amount'),
                  { title: '债务人', dataIndex: 'debtorName' },
                  dateColumn('到期日', 'dueDate'),
                  {
                    title: '验证',
                    dataIndex: 'verifyState',
                    render: (v: string, r) =>
                      v === 'passed' ? (
                        <Tag color="success">通过</Tag>
                      ) : v === 'failed' ? (
                        <Tag color="error" title={r.verifyMsg ?? ''}>
                          未通过
                        </Tag>
                      ) : (
                        <Tag>未验证</Tag>
                      ),
                  },
                ]}
              />
            ),
          },
          {
            key: 'history',
            label: '授信历史',
            children: (
              <>
                <Space style={{ marginBottom: 8 }}>
                  <ExportButton
                    menu="ft-credit-info"
                    path={CREDIT_PATHS.creditHistoryExport}
                    query={{ bizCode }}
                    fileName={creditHistoryFileName(bizCode)}
                  />
                </Space>
                <Table<HistoryRow>
                  size="small"
                  rowKey="id"
                  data-testid="credit-history"
                  dataSource={history.data ?? []}
                  columns={[
                    codeColumn('额度编号', 'lineCode'),
                    {
                      title: '额度类别',
                      dataIndex: 'lineKind',
                      render: (v: keyof typeof LINE_KIND_LABELS) => LINE_KIND_LABELS[v],
                    },
                    {
                      title: '变动',
                      dataIndex: 'movement',
                      render: (v: keyof typeof MOVEMENT_LABELS) => MOVEMENT_LABELS[v],
                    },
                    moneyColumn('金额', 'amount'),
                    moneyColumn('变动后额度', 'limitAfter'),
                    moneyColumn('变动后占用', 'occupiedAfter'),
                    {
                      title: '单据',
                      render: (_, r) =>
                        `${(DOC_TYPES as Record<string, { label: string } | undefined>)[r.docType]?.label ?? r.docType} ${r.docCode}`,
                    },
                    { title: '原因', dataIndex: 'reason' },
                    dateColumn('业务日期', 'bizDate'),
                    { title: '操作人', dataIndex: 'actorName' },
                  ]}
                />
              </>
            ),
          },
          { key: 'files', label: '授信文件', children: <FileList value={files.data ?? []} readOnly /> },
        ]}
      />
    </DocViewFrame>
  );
}
