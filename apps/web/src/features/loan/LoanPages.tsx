import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import {
  LOAN_EXPORT_FILE_NAME,
  LOAN_PATHS,
  LOAN_RED_LABELS,
  UPFRONT_LABELS,
  type LoanFigures,
  type LoanLine,
  type LoanPlanPreview,
  type LoanRow,
  type LoanView,
  loanSaveSchema,
} from '@portal/contract/loan';
import { accountLabel } from '@portal/contract/bank';
import type { PlanItem } from '@portal/contract/plan/schedule';
import { formatMoney } from '@portal/contract/format';
import { useOurAccountOptions } from '../../shared/bank/our-accounts';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { DateInput } from '../../shared/form/DateInput';
import { usePageFormName } from '../../shared/form/form-name';
import { fieldRules } from '../../shared/form/zod-rule';
import { KEY } from '../../shared/list/fit-columns';
import { ListPage } from '../../shared/list/ListPage';
import { ListExportButton } from '../../shared/list/ExportButton';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { docStateColumn, refreshDocList, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import type { DocKind } from '../../shared/workflow/doc-kind';
import { PrintButton } from '../../shared/print/PrintButton';
import { validValues } from '../../shared/ui/valid-values';
import { useDocSaved } from '../../shared/workflow/doc-kind';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { update } from '../../shared/request/http';
import { LOAN_ROUTES, loanApi, loanKeys, loanQueries } from './api';

const MENU = 'ft-loan';

/** The 放款单 and its 冲红 entry as the document kit knows them. */
const LOAN_DOC: DocKind = {
  docType: 'loan',
  menuCode: MENU,
  codeParam: 'loanBizCode',
  routes: LOAN_ROUTES,
  listPath: LOAN_PATHS.list,
  auditPath: LOAN_PATHS.audit,
  unAuditPath: LOAN_PATHS.unAudit,
  queryKey: loanKeys.all,
};
const LOAN_RED_DOC: DocKind = {
  ...LOAN_DOC,
  docType: 'loanRed',
  codeParam: 'loanRedBizCode',
  routes: { list: LOAN_ROUTES.list, view: LOAN_ROUTES.redView },
  auditPath: LOAN_PATHS.redAudit,
  unAuditPath: LOAN_PATHS.redUnAudit,
};

/** 放款单 list; a 放款单 is started from a contract (合同信息 → 放款). */
export function LoanListPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const buttons = useButtons(MENU);
  const [red, setRed] = useState<LoanRow | null>(null);
  const actions = useDocActionsColumn<LoanRow>(LOAN_DOC, {
    code: (r) => r.loanBizCode,
    remove: loanApi.remove,
    extra: (r) => [
      {
        label: '冲红',
        danger: true,
        hidden: !(
          r.state === 'approved' &&
          r.redState === 'none' &&
          (!r.redBizCode || r.redDocState === 'rejected') &&
          buttons.has('rushRed')
        ),
        onClick: () => setRed(r),
      },
    ],
  });
  return (
    <div data-testid="loan-list">
      <ListPage<LoanRow>
        source={LOAN_PATHS.list}
        rowKey="loanBizCode"
        filters={<ContractDocFilters />}
        toolbar={
          <ListExportButton menu={MENU} path={LOAN_PATHS.listExport} fileName={LOAN_EXPORT_FILE_NAME} />
        }
        columns={[
          codeColumn('放款单编号', 'loanBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', priority: 2 },
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: KEY },
          dateColumn('放款日', 'valueDate'),
          moneyColumn('融资金额', 'financingAmount', { priority: KEY }),
          moneyColumn('扣收合计', 'deductedAmount', { priority: 3 }),
          moneyColumn('退还多收', 'returnedAmount', { priority: 3 }),
          moneyColumn('实付金额', 'netAmount', { priority: KEY }),
          { title: '银行流水号', dataIndex: 'serialNo', key: 'serialNo', priority: KEY },
          docStateColumn<LoanRow>(),
          {
            title: '冲红',
            key: 'red',
            width: 110,
            // Pinned when shown; at 1280 the key columns and 操作 leave it no room.
            priority: 2,
            // Why 冲红 is no longer offered: seen beside 操作 without scrolling.
            fixed: 'right',
            render: (_: unknown, r: LoanRow) =>
              r.redState === 'reversed' ? (
                <Tag color="red">{`已冲红：${r.redReason ?? ''}`}</Tag>
              ) : r.redBizCode && r.redDocState !== 'rejected' ? (
                <Tag
                  color="orange"
                  style={{ cursor: 'pointer' }}
                  onClick={() => void navigate(`${LOAN_ROUTES.redView}?bizCode=${r.redBizCode}`)}
                >
                  {`冲红复核中 ${r.redBizCode}`}
                </Tag>
              ) : null,
          },
          actions,
        ]}
      />
      <RedDialog
        code={red?.loanBizCode ?? null}
        onClose={(done) => {
          setRed(null);
          if (done) refreshDocList(queryClient, LOAN_DOC);
        }}
      />
    </div>
  );
}

/** 冲红 asks for its reason first. */
function RedDialog({ code, onClose }: { code: string | null; onClose: (done: boolean) => void }) {
  const [reason, setReason] = useState('');
  useEffect(() => setReason(''), [code]);
  return (
    <Modal
      title={`冲红放款单 ${code ?? ''}`}
      open={code !== null}
      okText="冲红"
      okButtonProps={{ danger: true, disabled: !reason.trim() }}
      onCancel={() => onClose(false)}
      onOk={() =>
        void loanApi
          .rushRed(code!, reason.trim())
          .then((res) => res.ok && onClose(true))
          .catch(() => undefined)
      }
    >
      <Input.TextArea
        aria-label="冲红原因"
        placeholder="冲红原因"
        rows={3}
        maxLength={200}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
    </Modal>
  );
}

/**
 * The amounts line by line: financing, each up-front item (its amount on this disbursement, what
 * was prepaid, deducted or paid back), net paid out = financing − deducted + returned.
 */
export function LoanAmounts({ figures }: { figures: LoanFigures }) {
  return (
    <>
      <Table<LoanLine>
        data-testid="loan-lines"
        size="small"
        rowKey="dueId"
        pagination={false}
        dataSource={figures.lines}
        columns={[
          { title: '前期款项', key: 'kind', render: (_, l) => UPFRONT_LABELS[l.kind] },
          moneyColumn('合同应收', 'dueAmount'),
          moneyColumn('本次应收', 'amount'),
          moneyColumn('前期款已收', 'prepaid'),
          moneyColumn('本次扣收', 'deducted'),
          moneyColumn('退还多收', 'returned'),
        ]}
      />
      <Descriptions size="small" bordered column={4} style={{ marginTop: 12 }}>
        <Descriptions.Item label="融资金额">{formatMoney(figures.financingAmount)}</Descriptions.Item>
        <Descriptions.Item label="扣收合计">{formatMoney(figures.deductedTotal)}</Descriptions.Item>
        <Descriptions.Item label="退还多收">
          <span data-testid="loan-returned">{formatMoney(figures.returnedTotal)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="实付金额">
          <span data-testid="loan-net">{formatMoney(figures.netAmount)}</span>
        </Descriptions.Item>
      </Descriptions>
    </>
  );
}

/** The plan approval keeps: the signed due dates, the first period from the value date. */
function PlanPreview({ preview }: { preview: LoanPlanPreview }) {
  const columns = [
    { title: '期次', dataIndex: 'period', key: 'period' },
    dateColumn<PlanItem>('起息日', 'startDate'),
    dateColumn<PlanItem>('还款日', 'dueDate'),
    { title: '天数', dataIndex: 'days', key: 'days' },
    moneyColumn<PlanItem>('本金', 'principal'),
    moneyColumn<PlanItem>('利息', 'interest'),
    moneyColumn<PlanItem>('费用', 'fee'),
  ];
  return (
    <Card
      size="small"
      style={{ marginTop: 12 }}
      data-testid="loan-plan-preview"
      title={`放款后还款计划（起息日 ${preview.valueDate}）`}
    >
      {preview.rebased ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          message={`审核通过后首期从放款日起息，还款日不变：利息合计 ${formatMoney(preview.totalInterestBefore)} → ${formatMoney(preview.totalInterestAfter)}`}
        />
      ) : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          message="还款计划已从放款日起息，审核通过后不变"
        />
      )}
      <Table<PlanItem>
        size="small"
        rowKey="period"
        pagination={false}
        dataSource={preview.after}
        columns={columns}
      />
    </Card>
  );
}

interface Head {
  contBizCode: string;
  contractNo: string;
  custCode: string;
  custName: string;
}

/** The editor's fields, named as the save body (loanSaveSchema) names them. */
interface LoanFields {
  valueDate?: string;
  payBankBizCode?: string;
  payeeBankBizCode?: string;
  serialNo?: string;
  remark?: string;
}
const rules = fieldRules(loanSaveSchema);

/** 放款单编辑: opened from a contract (合同信息 → 放款) or to edit a draft. */
export function LoanEditorPage() {
  const [params] = useSearchParams();
  const code = params.get('loanBizCode') ?? '';
  const contBizCode = params.get('contBizCode') ?? '';
  const [form] = Form.useForm<LoanFields>();
  const formName = usePageFormName('loan');
  const [head, setHead] = useState<Head | null>(null);
  const [figures, setFigures] = useState<LoanFigures | null>(null);
  const [version, setVersion] = useState<number | undefined>();
  const valueDate = Form.useWatch('valueDate', form) ?? '';
  const ours = useOurAccountOptions();
  const existing = useQuery(loanQueries.view(code));
  const init = useQuery(loanQueries.init(contBizCode, !code && !!contBizCode));
  const payees = useQuery(loanQueries.payees(head?.custCode));
  const preview = useQuery(loanQueries.draftPlan(head?.contBizCode, valueDate));
  useFormFill(existing, (v) => {
    setHead(v);
    setFigures(v);
    form.setFieldsValue({
      valueDate: v.valueDate,
      payBankBizCode: v.payBankBizCode,
      payeeBankBizCode: v.payeeBankBizCode,
      serialNo: v.serialNo,
      remark: v.remark ?? '',
    });
    setVersion(v.version);
  });
  useFormFill(init, (i) => {
    setHead(i);
    setFigures(i);
    form.setFieldsValue({
      valueDate: i.valueDate,
      payBankBizCode: i.payBankBizCode ?? undefined,
      payeeBankBizCode: i.payeeBankBizCode ?? undefined,
    });
  });

  const saved = useDocSaved(LOAN_DOC, code);
  const save = async (submit: boolean) => {
    if (!head) return;
    const values = await validValues(form);
    if (!values) return;
    const r = await update<{ loanBizCode: string; version: number }>(
      LOAN_PATHS.saveBaseInfo,
      {
        contBizCode: head.contBizCode,
        ...values,
        remark: values.remark ?? '',
        ...(code ? { loanBizCode: code, version } : {}),
        submit,
      },
      { confirm: `此操作将保存放款单${submit ? '并提交审批' : ''}！ 是否继续？` },
    ).catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.loanBizCode, submit);
  };

  return (
    <EditorFrame
      testId="loan-editor"
      title={`${code ? `放款单编辑 ${code}` : '新增放款单'}${head ? ` — ${head.contractNo} ${head.custName}` : ''}`}
      backTo={LOAN_ROUTES.list}
      doc={code ? { docType: LOAN_DOC.docType, docCode: code } : undefined}
    >
      {!code && !contBizCode ? <Alert type="info" showIcon message="请从合同信息列表的「放款」进入" /> : null}
      {init.error ? <Alert type="warning" showIcon message={(init.error as Error).message} /> : null}
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Form form={form} name={formName} layout="inline" style={{ rowGap: 8 }}>
          <Form.Item name="valueDate" label="放款日" rules={rules.valueDate}>
            <DateInput aria-label="放款日" />
          </Form.Item>
          <Form.Item name="payBankBizCode" label="付款账户" rules={rules.payBankBizCode}>
            <Select
              aria-label="付款账户"
              style={{ width: 360 }}
              placeholder="付款账户（本公司）"
              loading={ours.loading}
              options={ours.options}
            />
          </Form.Item>
          <Form.Item name="payeeBankBizCode" label="收款账户" rules={rules.payeeBankBizCode}>
            <Select
              aria-label="收款账户"
              style={{ width: 360 }}
              placeholder="收款账户（供应商）"
              loading={payees.isLoading}
              options={(payees.data ?? []).map((a) => ({ value: a.bizCode, label: accountLabel(a) }))}
            />
          </Form.Item>
          <Form.Item name="serialNo" label="银行流水号" rules={rules.serialNo}>
            <Input aria-label="银行流水号" style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="remark" label="备注" rules={rules.remark}>
            <Input aria-label="备注" style={{ width: 240 }} />
          </Form.Item>
        </Form>
        {/* The amounts for the value date chosen (前置利息 runs from it); the saved ones until asked. */}
        {preview.data ? (
          <LoanAmounts figures={preview.data.figures} />
        ) : figures ? (
          <LoanAmounts figures={figures} />
        ) : null}
        {preview.error ? <Alert type="warning" showIcon message={(preview.error as Error).message} /> : null}
        {preview.data ? <PlanPreview preview={preview.data} /> : null}
        <SaveButtons save={save} disabled={!head} />
      </Space>
    </EditorFrame>
  );
}

/** 放款单查看 in the audit view; the checker sees the plan approval keeps before deciding. */
export function LoanViewPage() {
  return (
    <DocViewPage
      kind={LOAN_DOC}
      testId="loan-view"
      title="放款单"
      load={loanApi.view}
      actions={(code) => <PrintButton docCode={code} types={['loan']} />}
      tags={(v) => (v.redState === 'reversed' ? <Tag color="red">{LOAN_RED_LABELS.reversed}</Tag> : null)}
    >
      {(v, code) => <LoanViewBody v={v} code={code} />}
    </DocViewPage>
  );
}

function LoanViewBody({ v, code }: { v: LoanView; code: string }) {
  const preview = useQuery(loanQueries.plan(code, v.state));
  return (
    <>
      <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="合同">{`${v.contractNo}（${v.contBizCode}）`}</Descriptions.Item>
        <Descriptions.Item label="客户">{v.custName}</Descriptions.Item>
        <Descriptions.Item label="放款日">{v.valueDate}</Descriptions.Item>
        <Descriptions.Item label="付款账户">{`${v.payBankName ?? ''} ${v.payAccountNo ?? ''}`}</Descriptions.Item>
        <Descriptions.Item label="收款账户">{`${v.payeeBankName ?? ''} ${v.payeeAccountNo ?? ''}`}</Descriptions.Item>
        <Descriptions.Item label="银行流水号">{v.serialNo}</Descriptions.Item>
        <Descriptions.Item label="经办人">{v.createdByName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="备注">{v.remark ?? '—'}</Descriptions.Item>
        {v.redState === 'reversed' ? (
          <Descriptions.Item label="冲红原因">{v.redReason}</Descriptions.Item>
        ) : null}
      </Descriptions>
      <LoanAmounts figures={v} />
      {preview.data ? <PlanPreview preview={preview.data} /> : null}
    </>
  );
}

/** 放款单冲红 in the audit view: the checker sees the reason and the 放款单 it reverses. */
export function LoanRedViewPage() {
  return (
    <DocViewPage kind={LOAN_RED_DOC} testId="loan-red-view" title="放款单冲红" load={loanApi.redView}>
      {(v) => (
        <>
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="冲红单编号">{v.loanRedBizCode}</Descriptions.Item>
            <Descriptions.Item label="放款单">{v.loanBizCode}</Descriptions.Item>
            <Descriptions.Item label="经办人">{v.createdByName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="冲红原因" span={3}>
              {v.reason}
            </Descriptions.Item>
            <Descriptions.Item label="合同">{`${v.loan.contractNo}（${v.loan.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label="客户">{v.loan.custName}</Descriptions.Item>
            <Descriptions.Item label="放款日">{v.loan.valueDate}</Descriptions.Item>
            <Descriptions.Item label="银行流水号">{v.loan.serialNo}</Descriptions.Item>
          </Descriptions>
          <LoanAmounts figures={v.loan} />
        </>
      )}
    </DocViewPage>
  );
}
