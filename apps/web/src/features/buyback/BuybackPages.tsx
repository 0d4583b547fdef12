import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Form, Input, Modal, Space, Table, Tag } from 'antd';
import {
  BUYBACK_EXPORT_FILE_NAME,
  BUYBACK_MENU,
  BUYBACK_PATHS,
  BUYBACK_RED_LABELS,
  buybackListSchema,
  buybackSaveSchema,
  buybackSettleSchema,
  type BuybackQuote,
  type BuybackRow,
  type BuybackSettleRow,
  type BuybackView,
} from '@portal/contract/buyback';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import { formatMoney } from '@portal/contract/format';
import { DateInput } from '../../shared/form/DateInput';
import { fieldRules } from '../../shared/form/zod-rule';
import { KEY } from '../../shared/list/fit-columns';
import { ListPage } from '../../shared/list/ListPage';
import { ListExportButton } from '../../shared/list/ExportButton';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { refreshAfterAction } from '../../shared/workflow/api';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { docStateColumn, refreshDocList, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import { type DocKind } from '../../shared/workflow/doc-kind';
import { PrintButton } from '../../shared/print/PrintButton';
import { ContractClosureEditor } from '../../shared/editor/ContractClosureEditor';
import { ClosureAmounts } from '../../shared/plan/ClosureAmounts';
import { RedReasonDialog } from '../../shared/workflow/RedReasonDialog';
import { BUYBACK_ROUTES, buybackApi, buybackKeys } from './api';

const BUYBACK_DOC: DocKind = {
  docType: 'buyback',
  menuCode: BUYBACK_MENU,
  codeParam: 'buybackBizCode',
  routes: { list: BUYBACK_ROUTES.list, view: BUYBACK_ROUTES.view, editor: BUYBACK_ROUTES.editor },
  listPath: BUYBACK_PATHS.list,
  auditPath: BUYBACK_PATHS.audit,
  unAuditPath: BUYBACK_PATHS.unAudit,
  queryKey: buybackKeys.all,
};

const SETTLE_DOC: DocKind = {
  docType: 'buybackSettle',
  menuCode: BUYBACK_MENU,
  codeParam: 'settleBizCode',
  routes: { list: BUYBACK_ROUTES.list, view: BUYBACK_ROUTES.settleView },
  listPath: BUYBACK_PATHS.list,
  auditPath: BUYBACK_PATHS.settleAudit,
  unAuditPath: BUYBACK_PATHS.settleUnAudit,
  queryKey: buybackKeys.all,
};

/** 回购单 list; a 回购单 is started here from a contract code and a date. */
export function BuybackListPage() {
  const queryClient = useQueryClient();
  const buttons = useButtons(BUYBACK_MENU);
  const [red, setRed] = useState<string | null>(null);
  const actions = useDocActionsColumn<BuybackRow>(BUYBACK_DOC, {
    code: (r) => r.buybackBizCode,
    remove: buybackApi.remove,
    extra: (r) => [
      {
        label: '冲红',
        danger: true,
        hidden: !(
          r.state === 'approved' &&
          r.redState === 'none' &&
          r.settled === '0.00' &&
          buttons.has('rushRed')
        ),
        onClick: () => setRed(r.buybackBizCode),
      },
    ],
  });
  return (
    <div data-testid="buyback-list">
      <ListPage<BuybackRow>
        source={BUYBACK_PATHS.list}
        rowKey="buybackBizCode"
        sortable={buybackListSchema.sortable}
        filters={<ContractDocFilters />}
        toolbar={
          <Space>
            {buttons.has('add') ? (
              <Button type="primary" href={BUYBACK_ROUTES.editor}>
                新增回购单
              </Button>
            ) : null}
            <ListExportButton
              menu={BUYBACK_MENU}
              path={BUYBACK_PATHS.listExport}
              fileName={BUYBACK_EXPORT_FILE_NAME}
            />
          </Space>
        }
        columns={[
          codeColumn('回购单编号', 'buybackBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', priority: 2 },
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: KEY },
          dateColumn('回购日期', 'buybackDate'),
          moneyColumn('本金', 'principal', { priority: 3 }),
          moneyColumn('利息', 'interest', { priority: 3 }),
          moneyColumn('罚息', 'penalty', { priority: 3 }),
          moneyColumn('回购金额', 'amount', { priority: KEY }),
          moneyColumn('已收回购款', 'settled', { priority: 2 }),
          moneyColumn('未收回购款', 'open', { priority: KEY }),
          docStateColumn<BuybackRow>(),
          {
            title: '冲红',
            key: 'red',
            width: 80,
            priority: 2,
            render: (_: unknown, r: BuybackRow) =>
              r.redState === 'reversed' ? <Tag color="red">{BUYBACK_RED_LABELS.reversed}</Tag> : null,
          },
          actions,
        ]}
      />
      <RedReasonDialog
        title="冲红回购单"
        code={red}
        rushRed={buybackApi.rushRed}
        onClose={(done) => {
          setRed(null);
          if (done) refreshDocList(queryClient, BUYBACK_DOC);
        }}
      />
    </div>
  );
}

/** The amount part by part, and the plan lines it closes. */
function BuybackAmounts({
  v,
}: {
  v: Pick<BuybackQuote, 'principal' | 'interest' | 'fee' | 'penalty' | 'amount' | 'lines'>;
}) {
  return (
    <ClosureAmounts
      parts={[
        ['未还本金', v.principal],
        ['利息（计至回购日）', v.interest],
        ['费用', v.fee],
        ['罚息', v.penalty],
      ]}
      total={{ label: '回购金额', amount: v.amount, testId: 'buyback-amount' }}
      lines={v.lines}
    />
  );
}

const SAVE_RULES = fieldRules(buybackSaveSchema);

/** 回购单编辑: the contract and the date give the amount, recomputed by the server. */
export function BuybackEditorPage() {
  return (
    <ContractClosureEditor<BuybackQuote>
      kind={BUYBACK_DOC}
      docName="回购单"
      testId="buyback-editor"
      date={{ name: 'buybackDate', label: '回购日期' }}
      remarkLabel="备注"
      customerLabel="客户（回购方）"
      rules={SAVE_RULES}
      savePath={BUYBACK_PATHS.saveBaseInfo}
      view={buybackApi.view}
      quote={buybackApi.quote}
      figures={(q) => <BuybackAmounts v={q} />}
    />
  );
}

const SETTLE_RULES = fieldRules(buybackSettleSchema);

/** 收回购款: a 回购款核销 of one incoming, saved and submitted for approval. */
function SettleDialog({ v, open, onClose }: { v: BuybackView; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ fiidBizCode?: string; settleDate?: string; amount?: string }>();
  const queryClient = useQueryClient();
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const r = await update(
      BUYBACK_PATHS.settleSave,
      { ...values, buybackBizCode: v.buybackBizCode, submit: true },
      { confirm: '此操作将保存回购款核销并提交审批！ 是否继续？' },
    ).catch(() => null);
    // Done or refused (the incoming spent meanwhile, a version moved), the view shows the 回购单
    // as it is now (docs/architecture.md "A view is never stale").
    await refreshAfterAction(queryClient, ['buyback']);
    if (!r?.ok) return;
    onClose();
  };
  return (
    <Modal
      title={`收回购款 ${v.buybackBizCode}`}
      open={open}
      okText="保存并提交"
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" initialValues={{ amount: v.open }}>
        <Form.Item name="fiidBizCode" label="来款编号" rules={SETTLE_RULES.fiidBizCode}>
          <Input aria-label="来款编号" maxLength={12} />
        </Form.Item>
        <Form.Item name="settleDate" label="核销日期" rules={SETTLE_RULES.settleDate}>
          <DateInput aria-label="核销日期" />
        </Form.Item>
        <Form.Item name="amount" label="核销金额" rules={SETTLE_RULES.amount}>
          <Input aria-label="核销金额" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 回购单查看: the amount, the lines closed, the settlements; 收回购款 once approved. */
export function BuybackViewPage() {
  return (
    <DocViewPage
      kind={BUYBACK_DOC}
      testId="buyback-view"
      title="回购单"
      load={buybackApi.view}
      actions={(code) => <PrintButton docCode={code} types={['buyback']} />}
      tags={(v) => (v.redState === 'reversed' ? <Tag color="red">{BUYBACK_RED_LABELS.reversed}</Tag> : null)}
    >
      {(v) => <BuybackViewBody v={v} />}
    </DocViewPage>
  );
}

function BuybackViewBody({ v }: { v: BuybackView }) {
  const buttons = useButtons(BUYBACK_MENU);
  const [settling, setSettling] = useState(false);
  const canSettle =
    v.state === 'approved' && v.redState === 'none' && v.open !== '0.00' && buttons.has('save');
  return (
    <>
      <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="合同">{`${v.contractNo}（${v.contBizCode}）`}</Descriptions.Item>
        <Descriptions.Item label="客户（回购方）">{v.custName}</Descriptions.Item>
        <Descriptions.Item label="回购日期">{v.buybackDate}</Descriptions.Item>
        <Descriptions.Item label="已收回购款">{formatMoney(v.settled)}</Descriptions.Item>
        <Descriptions.Item label="未收回购款">{formatMoney(v.open)}</Descriptions.Item>
        <Descriptions.Item label="释放额度">{formatMoney(v.released)}</Descriptions.Item>
        <Descriptions.Item label="备注">{v.remark ?? '—'}</Descriptions.Item>
        {v.redState === 'reversed' ? (
          <Descriptions.Item label="冲红原因">{v.redReason}</Descriptions.Item>
        ) : null}
      </Descriptions>
      <BuybackAmounts v={v} />
      <Space style={{ margin: '12px 0' }}>
        <strong>回购款核销</strong>
        {canSettle ? (
          <Button type="primary" onClick={() => setSettling(true)}>
            收回购款
          </Button>
        ) : null}
      </Space>
      <Table<BuybackSettleRow>
        size="small"
        pagination={false}
        rowKey="settleBizCode"
        dataSource={v.settlements}
        columns={[
          {
            title: '核销编号',
            key: 'settleBizCode',
            render: (_: unknown, s) => (
              <a href={`${BUYBACK_ROUTES.settleView}?settleBizCode=${s.settleBizCode}`}>{s.settleBizCode}</a>
            ),
          },
          { title: '来款', key: 'income', render: (_: unknown, s) => `${s.fiidBizCode} ${s.payerName}` },
          { title: '核销日期', dataIndex: 'settleDate' },
          { title: '金额', key: 'amount', align: 'right', render: (_: unknown, s) => formatMoney(s.amount) },
          {
            title: '其中本金',
            key: 'principal',
            align: 'right',
            render: (_: unknown, s) => formatMoney(s.principal),
          },
          { title: '状态', key: 'state', render: (_: unknown, s) => DOC_STATE_LABELS[s.state] },
        ]}
      />
      {canSettle ? <SettleDialog v={v} open={settling} onClose={() => setSettling(false)} /> : null}
    </>
  );
}

/** 回购款核销查看 in the audit view: the checker sees the buy-back's open amount and the incoming's balance. */
export function BuybackSettleViewPage() {
  return (
    <DocViewPage
      kind={SETTLE_DOC}
      testId="buyback-settle-view"
      title="回购款核销"
      load={buybackApi.settleView}
    >
      {(v) => (
        <Descriptions size="small" bordered column={3}>
          <Descriptions.Item label="核销编号">{v.settleBizCode}</Descriptions.Item>
          <Descriptions.Item label="回购单">{v.buybackBizCode}</Descriptions.Item>
          <Descriptions.Item label="合同号">{v.contractNo}</Descriptions.Item>
          <Descriptions.Item label="客户">{v.custName}</Descriptions.Item>
          <Descriptions.Item label="来款">{`${v.fiidBizCode} ${v.payerName}`}</Descriptions.Item>
          <Descriptions.Item label="来款可核销余额">{formatMoney(v.incomeBalance)}</Descriptions.Item>
          <Descriptions.Item label="核销日期">{v.settleDate}</Descriptions.Item>
          <Descriptions.Item label="核销金额">{formatMoney(v.amount)}</Descriptions.Item>
          <Descriptions.Item label="其中本金">{formatMoney(v.principal)}</Descriptions.Item>
          <Descriptions.Item label="回购金额">{formatMoney(v.buybackAmount)}</Descriptions.Item>
          <Descriptions.Item label="未收回购款">{formatMoney(v.buybackOpen)}</Descriptions.Item>
          <Descriptions.Item label="释放额度">{formatMoney(v.released)}</Descriptions.Item>
        </Descriptions>
      )}
    </DocViewPage>
  );
}
