import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Descriptions, Space, Table, Tag } from 'antd';
import {
  COMPONENT_LABELS,
  PAID_EXPORT_FILE_NAME,
  PAID_KIND_LABELS,
  PAID_PATHS,
  PAID_RED_PATHS,
  type PaidLineView,
  type PaidRedRow,
  type PaidRow,
  type PaidView,
  paidListSchema,
  paidRedListSchema,
} from '@portal/contract/accounts';
import { formatMoney } from '@portal/contract/format';
import { ListPage } from '../../shared/list/ListPage';
import { KEY } from '../../shared/list/fit-columns';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { ListExportButton } from '../../shared/list/ExportButton';
import { DateRangeField, MoneyRangeField, rangeFilters } from '../../shared/list/range-fields';
import { useButtons } from '../../shared/permission/use-buttons';
import { DocStateTag } from '../../shared/workflow/DocStateTag';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import type { DocKind } from '../../shared/workflow/doc-kind';
import { PAID_DOC, PAID_ROUTES, paidApi, paidKeys } from './api';
import { PrintButton } from '../../shared/print/PrintButton';
import { RushRedDialog } from './RushRedDialog';

const RED_MENU = 'ft-paid-red';
const toFilters = rangeFilters({
  paidDate: ['paidDateFrom', 'paidDateTo'],
  amount: ['amountStart', 'amountEnd'],
});
/** The write-off's 冲红 entry as the document kit knows it. */
const PAID_RED_DOC: DocKind = {
  docType: 'paidRed',
  menuCode: RED_MENU,
  codeParam: 'paidRedBizCode',
  routes: { list: PAID_ROUTES.redList, view: PAID_ROUTES.redView },
  listPath: PAID_RED_PATHS.list,
  auditPath: PAID_RED_PATHS.audit,
  unAuditPath: PAID_RED_PATHS.unAudit,
  queryKey: paidKeys.all,
};
const RedTag = ({ red }: { red: boolean }) => (red ? <Tag color="red">已冲红</Tag> : null);

/** 来款核销 list: 查看, 编辑 and 删除 of drafts, 冲红 of approved ones. */
export function PaidListPage() {
  const navigate = useNavigate();
  const buttons = useButtons(PAID_DOC.menuCode);
  const [redFor, setRedFor] = useState<PaidRow | null>(null);
  const actions = useDocActionsColumn<PaidRow>(PAID_DOC, {
    code: (r) => r.paidBizCode,
    remove: paidApi.remove,
    extra: (r) => [
      {
        label: '冲红',
        danger: true,
        hidden: r.state !== 'approved' || r.red || !buttons.has('rushRed'),
        onClick: () => setRedFor(r),
      },
    ],
  });
  return (
    <div data-testid="paid-list">
      <RushRedDialog
        row={redFor}
        onClose={() => setRedFor(null)}
        onDone={(code) => {
          setRedFor(null);
          void navigate(`${PAID_ROUTES.redView}?paidRedBizCode=${code}`);
        }}
      />
      <ListPage<PaidRow>
        source={PAID_PATHS.list}
        sortable={paidListSchema.sortable}
        rowKey="paidBizCode"
        toFilters={toFilters}
        filters={
          <>
            <ContractDocFilters custName={false} />
            <DateRangeField name="paidDate" label="核销日期" />
            <MoneyRangeField name="amount" label="核销金额" />
          </>
        }
        toolbar={
          <Space>
            {buttons.has('add') ? (
              <Button type="primary" onClick={() => void navigate(PAID_ROUTES.editor)}>
                新增核销
              </Button>
            ) : null}
            <ListExportButton
              menu={PAID_DOC.menuCode}
              path={PAID_PATHS.listExport}
              fileName={PAID_EXPORT_FILE_NAME}
            />
          </Space>
        }
        columns={[
          codeColumn('核销编号', 'paidBizCode'),
          codeColumn('来款编号', 'fiidBizCode'),
          { title: '付款人', dataIndex: 'payerName', key: 'payerName' },
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', priority: KEY },
          dateColumn('核销日期', 'paidDate'),
          { title: '方式', key: 'kind', render: (_: unknown, r: PaidRow) => PAID_KIND_LABELS[r.kind] },
          moneyColumn('核销金额', 'amount', { priority: KEY }),
          moneyColumn('其中本金', 'principal'),
          {
            title: '状态',
            key: 'state',
            priority: KEY,
            render: (_: unknown, r: PaidRow) => (
              <Space size={4}>
                <DocStateTag state={r.state} />
                <RedTag red={r.red} />
              </Space>
            ),
          },
          actions,
        ]}
      />
    </div>
  );
}

/** The write-off's lines, one row per item and component (a red entry's are negative). */
export function PaidLines({ lines, red = false }: { lines: PaidLineView[]; red?: boolean }) {
  return (
    <Table<PaidLineView>
      data-testid={red ? 'paid-red-lines' : 'paid-lines'}
      style={{ marginTop: 12 }}
      size="small"
      rowKey={(l) => `${l.itemId}/${l.component}`}
      pagination={false}
      dataSource={lines}
      columns={[
        { title: '期次', dataIndex: 'period', key: 'period' },
        { title: '还款日', dataIndex: 'dueDate', key: 'dueDate' },
        { title: '核销项目', key: 'component', render: (_, l) => COMPONENT_LABELS[l.component] },
        moneyColumn('金额', 'amount'),
      ]}
    />
  );
}

export function PaidSummary({ v }: { v: PaidView }) {
  return (
    <Descriptions size="small" bordered column={3}>
      <Descriptions.Item label="来款">{`${v.fiidBizCode} ${v.payerName}`}</Descriptions.Item>
      <Descriptions.Item label="合同">{`${v.contractNo}（${v.custName}）`}</Descriptions.Item>
      <Descriptions.Item label="核销日期">{v.paidDate}</Descriptions.Item>
      <Descriptions.Item label="核销方式">{PAID_KIND_LABELS[v.kind]}</Descriptions.Item>
      <Descriptions.Item label="核销金额">{formatMoney(v.amount)}</Descriptions.Item>
      <Descriptions.Item label="其中本金">{formatMoney(v.principal)}</Descriptions.Item>
      <Descriptions.Item label="释放额度">{formatMoney(v.released)}</Descriptions.Item>
      <Descriptions.Item label="结清合同">{v.settledContract ? '是' : '否'}</Descriptions.Item>
      <Descriptions.Item label="冲红">
        {v.red ? `已冲红（${v.redBizCode ?? ''}）` : v.redBizCode ? `冲红中（${v.redBizCode}）` : '—'}
      </Descriptions.Item>
    </Descriptions>
  );
}

/** 来款核销查看 in the audit view. */
export function PaidViewPage() {
  return (
    <DocViewPage
      kind={PAID_DOC}
      testId="paid-view"
      title="来款核销"
      load={paidApi.view}
      actions={(code) => <PrintButton docCode={code} types={['writeOff']} />}
      tags={(v) => <RedTag red={v.red} />}
    >
      {(v) => (
        <>
          <PaidSummary v={v} />
          <PaidLines lines={v.lines} />
        </>
      )}
    </DocViewPage>
  );
}

/** 来款核销冲红 list: entries are made by 冲红 on the write-off list; here they are viewed or deleted. */
export function RedListPage() {
  const actions = useDocActionsColumn<PaidRedRow>(PAID_RED_DOC, {
    code: (r) => r.paidRedBizCode,
    remove: paidApi.removeRed,
  });
  return (
    <div data-testid="paid-red-list">
      <ListPage<PaidRedRow>
        source={PAID_RED_PATHS.list}
        sortable={paidRedListSchema.sortable}
        rowKey="paidRedBizCode"
        filters={<ContractDocFilters custName={false} />}
        columns={[
          codeColumn('冲红编号', 'paidRedBizCode'),
          codeColumn('核销编号', 'paidBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
          dateColumn('冲红日期', 'redDate'),
          moneyColumn('冲红金额', 'amount'),
          { title: '原因', dataIndex: 'reason', key: 'reason' },
          docStateColumn<PaidRedRow>(),
          actions,
        ]}
      />
    </div>
  );
}

/** 来款核销冲红查看: the entry with the write-off it reverses, in the audit view. */
export function RedViewPage() {
  return (
    <DocViewPage kind={PAID_RED_DOC} testId="paid-red-view" title="来款核销冲红" load={paidApi.red}>
      {(v) => (
        <>
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="冲红日期">{v.redDate}</Descriptions.Item>
            <Descriptions.Item label="冲红金额">
              <span style={{ color: '#cf1322' }}>{formatMoney(v.amount)}</span>
            </Descriptions.Item>
            <Descriptions.Item label="原因">{v.reason ?? '—'}</Descriptions.Item>
          </Descriptions>
          <PaidLines lines={v.lines} red />
          <h4 style={{ marginTop: 16 }}>原核销</h4>
          <PaidSummary v={v.paid} />
          <PaidLines lines={v.paid.lines} />
        </>
      )}
    </DocViewPage>
  );
}
