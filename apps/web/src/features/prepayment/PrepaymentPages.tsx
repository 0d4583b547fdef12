import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import { Alert, Descriptions, Form, Input, Radio, Select, Space, Table, type FormRule } from 'antd';
import {
  isCashMethod,
  PA_CASH_METHODS,
  PA_EXPORT_FILE_NAME,
  PA_METHOD_LABELS,
  PA_PATHS,
  type PaDue,
  type PaMethod,
  type PaRow,
  type PaView,
  paLineSchema,
  paListSchema,
  paSaveSchema,
} from '@portal/contract/prepayment';
import { DUE_KIND_LABELS } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import { useOurAccountOptions } from '../../shared/bank/our-accounts';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { DateInput } from '../../shared/form/DateInput';
import { usePageFormName } from '../../shared/form/form-name';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { isEnteredAmount, isPositiveAmount, openAmountRule } from '../../shared/form/open-amount';
import { fieldRules } from '../../shared/form/zod-rule';
import { ListPage } from '../../shared/list/ListPage';
import { KEY } from '../../shared/list/fit-columns';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { ListExportButton } from '../../shared/list/ExportButton';
import { DateRangeField, MoneyRangeField, rangeFilters } from '../../shared/list/range-fields';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import type { DocKind } from '../../shared/workflow/doc-kind';
import { PrintButton } from '../../shared/print/PrintButton';
import { validValues } from '../../shared/ui/valid-values';
import { PA_ROUTES, paApi, paKeys, paQueries } from './api';
import { useDocSaved } from '../../shared/workflow/doc-kind';
import { useFormFill } from '../../shared/editor/use-form-fill';

const MENU = 'ft-pa-mgr';

/** The 前期款 as the document kit knows it. */
const PA_DOC: DocKind = {
  docType: 'prepayment',
  menuCode: MENU,
  codeParam: 'preamtBizCode',
  routes: PA_ROUTES,
  listPath: PA_PATHS.list,
  auditPath: PA_PATHS.audit,
  unAuditPath: PA_PATHS.unAudit,
  queryKey: paKeys.all,
};
const toFilters = rangeFilters({
  receiveDate: ['receiveDateFrom', 'receiveDateTo'],
  amount: ['amountStart', 'amountEnd'],
});

/** 前期款 list; a prepayment is generated from a contract (合同信息 → 生成前期款). */
export function PaListPage() {
  const actions = useDocActionsColumn<PaRow>(PA_DOC, { code: (r) => r.preamtBizCode, remove: paApi.remove });
  return (
    <div data-testid="pa-list">
      <ListPage<PaRow>
        source={PA_PATHS.list}
        sortable={paListSchema.sortable}
        rowKey="preamtBizCode"
        toFilters={toFilters}
        toolbar={<ListExportButton menu={MENU} path={PA_PATHS.listExport} fileName={PA_EXPORT_FILE_NAME} />}
        filters={
          <>
            <ContractDocFilters />
            <DateRangeField name="receiveDate" label="收取日期" />
            <MoneyRangeField name="amount" label="收取金额" />
          </>
        }
        columns={[
          codeColumn('前期款编号', 'preamtBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: KEY },
          { title: '收取方式', key: 'method', render: (_: unknown, r: PaRow) => PA_METHOD_LABELS[r.method] },
          dateColumn('收取日期', 'receiveDate'),
          moneyColumn('收取金额', 'amount', { priority: KEY }),
          docStateColumn<PaRow>(),
          actions,
        ]}
      />
    </div>
  );
}

interface Head {
  contBizCode: string;
  contractNo: string;
  custName: string;
}

const rules = fieldRules(paSaveSchema);

/** 本次收取 of one due, checked by the line schema the server uses and against what is open. */
const lineAmountRule = (due: PaDue): FormRule =>
  openAmountRule(
    paLineSchema.shape.amount,
    due.openAmount,
    `超过该项待收金额 ${formatMoney(due.openAmount)}`,
  );

/** The editor's fields: the head, and 本次收取 per open due (by its id). */
interface PaFields {
  method?: PaMethod;
  bankBizCode?: string;
  receiveDate?: string;
  payerName?: string;
  amounts?: Record<string, string | undefined>;
}

/** The due lines to send: those with an amount above zero. */
function chosenLines(amounts: PaFields['amounts']): { dueId: number; amount: string }[] {
  return Object.entries(amounts ?? {})
    .filter((e): e is [string, string] => isPositiveAmount(e[1]))
    .map(([dueId, amount]) => ({ dueId: Number(dueId), amount }));
}

/** 前期款编辑 (基本信息): opened from a contract with its open up-front dues, or to edit a draft. */
export function PaEditorPage() {
  const [params] = useSearchParams();
  const code = params.get('preamtBizCode') ?? '';
  const contBizCode = params.get('contBizCode') ?? '';
  const [form] = Form.useForm<PaFields>();
  const formName = usePageFormName('prepayment');
  const [dues, setDues] = useState<PaDue[]>([]);
  const [head, setHead] = useState<Head | null>(null);
  const [version, setVersion] = useState<number | undefined>();
  const amounts = Form.useWatch('amounts', form);
  const accounts = useOurAccountOptions();
  const existing = useQuery(paQueries.view(code));
  const init = useQuery(paQueries.init(contBizCode, !code && !!contBizCode));
  useFormFill(existing, (v) => {
    setHead(v);
    setDues(v.lines);
    form.setFieldsValue({
      // A draft left with the old 放款时扣收 must be given a cash method before it is saved again.
      method: isCashMethod(v.method) ? v.method : undefined,
      bankBizCode: v.bankBizCode,
      receiveDate: v.receiveDate,
      payerName: v.payerName ?? '',
      amounts: Object.fromEntries(v.lines.map((l) => [String(l.dueId), l.lineAmount])),
    });
    setVersion(v.version);
  });
  useFormFill(init, (i) => {
    setHead(i);
    setDues(i.dues);
    form.setFieldsValue({
      bankBizCode: i.bankBizCode ?? undefined,
      receiveDate: i.receiveDate,
      payerName: i.payerName,
      amounts: Object.fromEntries(i.dues.map((d) => [String(d.dueId), d.openAmount])),
    });
  });

  const lines = chosenLines(amounts);
  const total = lines.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
  // Nothing to save while every due is left out (empty or 0); a malformed amount still lets 保存
  // run, whose validation says what is wrong.
  const blocked = !head || !Object.values(amounts ?? {}).some(isEnteredAmount);
  const saved = useDocSaved(PA_DOC, code);
  const save = async (submit: boolean) => {
    if (!head) return;
    const values = await validValues(form);
    if (!values) return;
    const r = await paApi
      .save(
        {
          contBizCode: head.contBizCode,
          method: values.method,
          bankBizCode: values.bankBizCode,
          receiveDate: values.receiveDate,
          payerName: values.payerName ?? '',
          lines: chosenLines(values.amounts),
          ...(code ? { preamtBizCode: code, version } : {}),
        },
        submit,
      )
      .catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.preamtBizCode, submit);
  };

  return (
    <EditorFrame
      testId="pa-editor"
      title={`${code ? `前期款编辑 ${code}` : '生成前期款'}${head ? ` — ${head.contractNo} ${head.custName}` : ''}`}
      backTo={PA_ROUTES.list}
      doc={code ? { docType: PA_DOC.docType, docCode: code } : undefined}
    >
      {!code && !contBizCode ? (
        <Alert type="info" showIcon message="请从合同信息列表的「生成前期款」进入" />
      ) : null}
      {init.error ? <Alert type="warning" showIcon message={(init.error as Error).message} /> : null}
      <Form form={form} name={formName} initialValues={{ method: PA_CASH_METHODS[0] }}>
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Space wrap align="start">
            {/* Cash only: deduction at disbursement is the 放款单's (docs/money-lifecycle.md). */}
            <Form.Item name="method" label="收取方式" rules={rules.method}>
              <Radio.Group
                aria-label="收取方式"
                options={PA_CASH_METHODS.map((value) => ({ value, label: PA_METHOD_LABELS[value] }))}
              />
            </Form.Item>
            <Form.Item name="bankBizCode" rules={rules.bankBizCode}>
              <Select
                aria-label="收款账户"
                style={{ width: 360 }}
                placeholder="收款账户"
                loading={accounts.loading}
                options={accounts.options}
              />
            </Form.Item>
            <Form.Item name="receiveDate" label="收取日期" rules={rules.receiveDate}>
              <DateInput aria-label="收取日期" />
            </Form.Item>
            <Form.Item name="payerName" label="付款人" rules={rules.payerName}>
              <Input aria-label="付款人" style={{ width: 300 }} />
            </Form.Item>
          </Space>
          <Table<PaDue>
            size="small"
            rowKey="dueId"
            pagination={false}
            dataSource={dues}
            columns={[
              { title: '费用类型', key: 'kind', render: (_, d) => DUE_KIND_LABELS[d.kind] },
              dateColumn('应收日期', 'dueDate'),
              moneyColumn('应收金额', 'amount'),
              moneyColumn('已收金额', 'receivedAmount'),
              moneyColumn('待收金额', 'openAmount'),
              {
                title: '本次收取',
                key: 'amount',
                render: (_, d) => (
                  <Form.Item
                    name={['amounts', String(d.dueId)]}
                    // Empty or 0 leaves the due out; anything else is an amount the server takes.
                    rules={[lineAmountRule(d)]}
                    style={{ marginBottom: 0 }}
                  >
                    <MoneyInput aria-label={`本次收取${DUE_KIND_LABELS[d.kind]}`} style={{ width: 140 }} />
                  </Form.Item>
                ),
              },
            ]}
          />
          <div data-testid="pa-total">本次收取合计：{formatMoney(total.toFixed(2))}</div>
          <SaveButtons save={save} disabled={blocked} />
        </Space>
      </Form>
    </EditorFrame>
  );
}

/** 前期款查看 in the audit view. */
export function PaViewPage() {
  return (
    <DocViewPage
      kind={PA_DOC}
      testId="pa-view"
      title="前期款"
      load={paApi.view}
      actions={(code) => <PrintButton docCode={code} types={['prepayment']} />}
    >
      {(v) => (
        <>
          <Descriptions size="small" bordered column={3}>
            <Descriptions.Item label="合同">{`${v.contractNo}（${v.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label="客户">{v.custName}</Descriptions.Item>
            <Descriptions.Item label="收取方式">{PA_METHOD_LABELS[v.method]}</Descriptions.Item>
            <Descriptions.Item label="收取日期">{v.receiveDate}</Descriptions.Item>
            <Descriptions.Item label="收取金额">{formatMoney(v.amount)}</Descriptions.Item>
            <Descriptions.Item label="付款人">{v.payerName ?? '—'}</Descriptions.Item>
          </Descriptions>
          <Table<PaView['lines'][number]>
            style={{ marginTop: 12 }}
            size="small"
            rowKey="dueId"
            pagination={false}
            dataSource={v.lines}
            columns={[
              { title: '费用类型', key: 'kind', render: (_, d) => DUE_KIND_LABELS[d.kind] },
              moneyColumn('应收金额', 'amount'),
              moneyColumn('本次收取', 'lineAmount'),
              moneyColumn('累计已收', 'receivedAmount'),
            ]}
          />
        </>
      )}
    </DocViewPage>
  );
}
