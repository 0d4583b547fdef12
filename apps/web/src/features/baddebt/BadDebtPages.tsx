import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Space, Tag } from 'antd';
import {
  BAD_DEBT_EXPORT_FILE_NAME,
  BAD_DEBT_MENU,
  BAD_DEBT_PATHS,
  BAD_DEBT_RED_LABELS,
  badDebtListSchema,
  badDebtSaveSchema,
  type BadDebtQuote,
  type BadDebtRow,
  type BadDebtView,
} from '@portal/contract/baddebt';
import { formatMoney } from '@portal/contract/format';
import { ContractClosureEditor } from '../../shared/editor/ContractClosureEditor';
import { fieldRules } from '../../shared/form/zod-rule';
import { KEY } from '../../shared/list/fit-columns';
import { ListPage } from '../../shared/list/ListPage';
import { ListExportButton } from '../../shared/list/ExportButton';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { ClosureAmounts } from '../../shared/plan/ClosureAmounts';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { docStateColumn, refreshDocList, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import { type DocKind } from '../../shared/workflow/doc-kind';
import { RedReasonDialog } from '../../shared/workflow/RedReasonDialog';
import { BAD_DEBT_ROUTES, badDebtApi, badDebtKeys } from './api';

const BAD_DEBT_DOC: DocKind = {
  docType: 'badDebt',
  menuCode: BAD_DEBT_MENU,
  codeParam: 'badDebtBizCode',
  routes: BAD_DEBT_ROUTES,
  listPath: BAD_DEBT_PATHS.list,
  auditPath: BAD_DEBT_PATHS.audit,
  unAuditPath: BAD_DEBT_PATHS.unAudit,
  queryKey: badDebtKeys.all,
};

/** 核销坏账 list; a write-off is started here from a contract code and a date. */
export function BadDebtListPage() {
  const queryClient = useQueryClient();
  const buttons = useButtons(BAD_DEBT_MENU);
  const [red, setRed] = useState<string | null>(null);
  const actions = useDocActionsColumn<BadDebtRow>(BAD_DEBT_DOC, {
    code: (r) => r.badDebtBizCode,
    remove: badDebtApi.remove,
    extra: (r) => [
      {
        label: '冲红',
        danger: true,
        hidden: !(r.state === 'approved' && r.redState === 'none' && buttons.has('rushRed')),
        onClick: () => setRed(r.badDebtBizCode),
      },
    ],
  });
  return (
    <div data-testid="bad-debt-list">
      <ListPage<BadDebtRow>
        source={BAD_DEBT_PATHS.list}
        rowKey="badDebtBizCode"
        sortable={badDebtListSchema.sortable}
        filters={<ContractDocFilters />}
        toolbar={
          <Space>
            {buttons.has('add') ? (
              <Button type="primary" href={BAD_DEBT_ROUTES.editor}>
                新增核销坏账
              </Button>
            ) : null}
            <ListExportButton
              menu={BAD_DEBT_MENU}
              path={BAD_DEBT_PATHS.listExport}
              fileName={BAD_DEBT_EXPORT_FILE_NAME}
            />
          </Space>
        }
        columns={[
          codeColumn('核销坏账编号', 'badDebtBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', priority: 2 },
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: KEY },
          dateColumn('核销日期', 'writeOffDate'),
          moneyColumn('本金', 'principal', { priority: KEY }),
          moneyColumn('利息', 'interest', { priority: 3 }),
          moneyColumn('罚息', 'penalty', { priority: 3 }),
          moneyColumn('核销金额', 'amount', { priority: KEY }),
          docStateColumn<BadDebtRow>(),
          {
            title: '冲红',
            key: 'red',
            width: 80,
            priority: 2,
            render: (_: unknown, r: BadDebtRow) =>
              r.redState === 'reversed' ? <Tag color="red">{BAD_DEBT_RED_LABELS.reversed}</Tag> : null,
          },
          actions,
        ]}
      />
      <RedReasonDialog
        title="冲红核销坏账"
        code={red}
        rushRed={badDebtApi.rushRed}
        onClose={(done) => {
          setRed(null);
          if (done) refreshDocList(queryClient, BAD_DEBT_DOC);
        }}
      />
    </div>
  );
}

/** What is written off, part by part, how the principal is charged, and the plan lines closed. */
function WriteOffFigures({ v }: { v: BadDebtQuote | BadDebtView }) {
  return (
    <>
      <ClosureAmounts
        parts={[
          ['未还本金', v.principal],
          ['应收利息（计至核销日）', v.interest],
          ['费用', v.fee],
          ['罚息', v.penalty],
        ]}
        total={{ label: '核销金额', amount: v.amount, testId: 'bad-debt-amount' }}
        lines={v.lines}
      />
      <Descriptions size="small" bordered column={3} style={{ marginTop: 12 }}>
        <Descriptions.Item label="已计提坏账准备">{formatMoney(v.reserveHeld)}</Descriptions.Item>
        <Descriptions.Item label="冲减坏账准备">
          <span data-testid="bad-debt-reserve">{formatMoney(v.reserveUsed)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="计入信用减值损失">
          <span data-testid="bad-debt-loss">{formatMoney(v.lossCharged)}</span>
        </Descriptions.Item>
      </Descriptions>
    </>
  );
}

const RULES = fieldRules(badDebtSaveSchema);

/** 核销坏账编辑: the contract and the date give the amount, recomputed by the server. */
export function BadDebtEditorPage() {
  return (
    <ContractClosureEditor<BadDebtQuote>
      kind={BAD_DEBT_DOC}
      docName="核销坏账单"
      testId="bad-debt-editor"
      date={{ name: 'writeOffDate', label: '核销日期' }}
      remarkLabel="核销原因"
      customerLabel="客户"
      rules={RULES}
      savePath={BAD_DEBT_PATHS.saveBaseInfo}
      view={badDebtApi.view}
      quote={badDebtApi.quote}
      figures={(q) => <WriteOffFigures v={q} />}
    />
  );
}

/** 核销坏账查看: the figures, how the principal is charged, the credit released, the 冲红 if any. */
export function BadDebtViewPage() {
  return (
    <DocViewPage
      kind={BAD_DEBT_DOC}
      testId="bad-debt-view"
      title="核销坏账"
      load={badDebtApi.view}
      tags={(v) =>
        v.redState === 'reversed' ? (
          <Tag color="red">{BAD_DEBT_RED_LABELS.reversed}</Tag>
        ) : v.state === 'approved' ? (
          <Tag color="error">已核销</Tag>
        ) : null
      }
    >
      {(v) => (
        <>
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="合同">{`${v.contractNo}（${v.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label="客户">{v.custName}</Descriptions.Item>
            <Descriptions.Item label="核销日期">{v.writeOffDate}</Descriptions.Item>
            <Descriptions.Item label="释放额度">{formatMoney(v.released)}</Descriptions.Item>
            <Descriptions.Item label="结转核销">{v.paidBizCode ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="核销原因">{v.remark ?? '—'}</Descriptions.Item>
            {v.redState === 'reversed' ? (
              <Descriptions.Item label="冲红原因">{v.redReason}</Descriptions.Item>
            ) : null}
          </Descriptions>
          <WriteOffFigures v={v} />
        </>
      )}
    </DocViewPage>
  );
}
