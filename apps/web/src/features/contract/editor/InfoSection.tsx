import Decimal from 'decimal.js';
import { DebtorCell } from '../../../shared/debtor/DebtorPicker';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Select, Space, Typography, message } from 'antd';
import {
  CONTRACT_PATHS,
  DISCLOSURE_LABELS,
  type ContractReceivable,
  type ImportPreview,
  contractReceivableSchema,
  infoSaveSchema,
  payerSchema,
} from '@portal/contract/contract';
import { PRODUCT_LABELS, RECOURSE_LABELS } from '@portal/contract/credit';
import { accountLabel } from '@portal/contract/bank';
import { formatMoney } from '@portal/contract/format';
import {
  PLAN_MISSING_MSG,
  planProblem,
  planTermsChanged,
  type PlanTerms,
} from '@portal/contract/plan/complete';
import { impliedDues, refreshedDues, upfrontProblem } from '@portal/contract/plan/upfront';
import { DateInput } from '../../../shared/form/DateInput';
import { useFormFill } from '../../../shared/editor/use-form-fill';
import { usePageFormName } from '../../../shared/form/form-name';
import { ListEditor } from '../../../shared/form/ListEditor';
import { SaveButtons } from '../../../shared/editor/SaveButtons';
import { MoneyInput } from '../../../shared/form/MoneyInput';
import { ImportTemplateButton } from '../../../shared/files/ImportTemplateButton';
import { fieldRules, formRules, listRule } from '../../../shared/form/zod-rule';
import { validValues } from '../../../shared/ui/valid-values';
import { CONTRACT_ROUTES, contractQueries, importContractReceivables } from '../api';
import { options } from '../state-tags';
import type { ContractDoc } from './contract-doc';
import { ImportPreviewModal } from './ImportPreviewModal';
import { XlsxImportButton } from '../../../shared/files/XlsxImportButton';

const infoRules = formRules(infoSaveSchema);
const receivableRules = fieldRules(contractReceivableSchema);
const payerRules = fieldRules(payerSchema);
type Values = Record<string, unknown>;
type Row = Partial<Record<string, string>>;

/** Drops the blank optional cells of a list row (the server treats them as absent). */
function clean<T extends Row>(rows: readonly T[] | undefined): T[] {
  return (rows ?? []).map(
    (r) =>
      Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T,
  );
}

/**
 * 基本信息: the platform credit and line, the terms, the receivables and payers. Saving a new
 * contract creates it (the editor then shows it by its code); 保存并提交 sends it to approval.
 */
export function InfoSection({ doc, fromCredit }: { doc: ContractDoc; fromCredit: string }) {
  const { bizCode, info, editable } = doc;
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const client = useQueryClient();
  const [recPreview, setRecPreview] = useState<ImportPreview<ContractReceivable> | null>(null);
  const credBizCode = Form.useWatch('platCredBizCode', form) as string | undefined;
  const credits = useQuery(contractQueries.customers());
  const init = useQuery(contractQueries.init(credBizCode));
  const rules = useQuery(contractQueries.rules());
  const banks = useQuery(contractQueries.banks());
  const members = useQuery(contractQueries.members());
  const formName = usePageFormName('info');

  useFormFill({ data: info, isLoading: doc.loading }, (c) =>
    form.setFieldsValue({ ...c, managerId: c.managerId ?? undefined, remark: c.remark ?? undefined }),
  );
  useFormFill({ data: bizCode ? undefined : fromCredit || undefined, isLoading: false }, (c) =>
    form.setFieldsValue({ platCredBizCode: c }),
  );
  // A credit picked: its customer, its product and (for a new contract) its free receivables.
  useFormFill(init, (d) => {
    form.setFieldsValue({ custCode: d.custCode, custName: d.custName });
    if (!bizCode) {
      form.setFieldsValue({ product: d.product, recourse: d.recourse ?? 'with' });
      if (!(form.getFieldValue('receivables') as unknown[] | undefined)?.length)
        form.setFieldsValue({ receivables: d.receivables });
    }
  });

  /**
   * What the server would refuse a submission for that the form can know (docs/money-lifecycle.md
   * "The plan", "Implied up-front items"): terms that discard the saved plan, a plan not generated
   * and saved, an implied up-front item missing or changed without a reason.
   */
  const submitProblem = async (values: Record<string, unknown>): Promise<string | null> => {
    const terms = values as unknown as PlanTerms;
    if (info && planTermsChanged(info, terms)) return PLAN_MISSING_MSG;
    const scheme = await client
      .fetchQuery({ ...contractQueries.scheme(bizCode), staleTime: 0 })
      .catch(() => null);
    if (!scheme) return null;
    const plan = planProblem(scheme.items, terms.financingAmount, scheme.rule !== null);
    if (plan) return plan;
    // The implied up-front items, as this save will leave them (a new 保证金比例 brings a new margin
    // figure): each there, at the rule's figure or with a reason (docs/money-lifecycle.md
    // "Implied up-front items").
    const dues = await client
      .fetchQuery({ ...contractQueries.dues(bizCode), staleTime: 0 })
      .catch(() => null);
    if (!dues) return null;
    const implied = impliedDues({
      planned: scheme.rule !== null,
      startDate: terms.startDate,
      financingAmount: terms.financingAmount,
      marginRatio: (values.marginRatio as string | undefined) || null,
      upfrontInterest: scheme.upfrontInterest,
      upfrontFee: scheme.upfrontFee,
    });
    // The save brings them in line only when the ratio changes (the plan is kept: see above).
    const ratioChanged = !new Decimal(info?.marginRatio || 0).eq(
      (values.marginRatio as string | undefined) || 0,
    );
    return upfrontProblem(implied, ratioChanged ? refreshedDues(implied, dues) : dues);
  };

  const save = async (submit: boolean) => {
    const values = await validValues(form);
    if (!values) return;
    const problem = submit ? await submitProblem(values) : null;
    if (problem) {
      void message.warning(problem);
      return;
    }
    const { custName: _n, ...rest } = values;
    const body = {
      ...rest,
      receivables: clean(values.receivables as Row[]),
      payers: clean(values.payers as Row[]),
      ...(bizCode ? { bizCode, version: doc.version } : {}),
      submit,
    };
    const saved = await doc.save({
      path: CONTRACT_PATHS.infoSave,
      body,
      what: submit ? '合同并提交审批' : '合同基本信息',
    });
    if (!saved) return;
    const code = saved.bizCode ?? bizCode;
    if (submit) void navigate(`${CONTRACT_ROUTES.view}?bizCode=${code}`);
    else if (!bizCode) void navigate(`${CONTRACT_ROUTES.editor}?bizCode=${code}`, { replace: true });
  };

  const lines = init.data?.lines ?? [];

  return (
    <>
      <Form
        form={form}
        name={formName}
        layout="vertical"
        disabled={!editable}
        initialValues={{
          disclosure: 'disclosed',
          recourse: 'with',
          product: 'factoring',
          currency: 'CNY',
          financingRatio: '0.8',
          payers: [{}],
        }}
        data-testid="contract-info-form"
      >
        <Space wrap align="start">
          <Form.Item
            name="platCredBizCode"
            label="平台授信"
            rules={infoRules.platCredBizCode}
            style={{ minWidth: 320 }}
          >
            <Select
              showSearch
              aria-label="平台授信"
              optionFilterProp="label"
              options={(credits.data ?? []).map((c) => ({
                value: c.credBizCode,
                label: `${c.custName}（授信 ${c.credBizCode}，至 ${c.endDate}）`,
              }))}
            />
          </Form.Item>
          <Form.Item name="custCode" hidden>
            <Input />
          </Form.Item>
          <Form.Item name="custName" label="客户">
            <Input disabled style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="lineCode" label="占用额度" rules={infoRules.lineCode} style={{ minWidth: 360 }}>
            <Select
              aria-label="占用额度"
              options={lines.map((l) => ({
                value: l.lineCode,
                label: `${l.debtorName ?? l.custName} ${l.lineCode}（可用 ${formatMoney(l.availableAmount)}）`,
              }))}
            />
          </Form.Item>
        </Space>
        <Space wrap align="start">
          <Form.Item name="contractNo" label="合同号" rules={infoRules.contractNo}>
            <Input aria-label="合同号" />
          </Form.Item>
          <Form.Item name="recourse" label="追索类型">
            <Select style={{ width: 120 }} options={options(RECOURSE_LABELS)} />
          </Form.Item>
          <Form.Item name="disclosure" label="公开类型">
            <Select style={{ width: 120 }} options={options(DISCLOSURE_LABELS)} />
          </Form.Item>
          <Form.Item name="product" label="产品">
            <Select style={{ width: 140 }} options={options(PRODUCT_LABELS)} />
          </Form.Item>
        </Space>
        <Space wrap align="start">
          <Form.Item name="financingRatio" label="融资比例" rules={infoRules.financingRatio}>
            <Input aria-label="融资比例" placeholder="0.8" style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="financingAmount" label="融资金额" rules={infoRules.financingAmount}>
            <MoneyInput aria-label="融资金额" />
          </Form.Item>
          <Form.Item name="marginRatio" label="保证金比例" rules={infoRules.marginRatio}>
            <Input aria-label="保证金比例" placeholder="0.1" style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="startDate" label="起始日" rules={infoRules.startDate}>
            <DateInput aria-label="起始日" />
          </Form.Item>
          <Form.Item name="maturityDate" label="到期日" rules={infoRules.maturityDate}>
            <DateInput aria-label="到期日" />
          </Form.Item>
        </Space>
        <Space wrap align="start">
          <Form.Item
            name="ruleBizCode"
            label="计息规则"
            rules={infoRules.ruleBizCode}
            style={{ minWidth: 260 }}
          >
            <Select
              aria-label="计息规则"
              options={(rules.data ?? []).map((r) => ({ value: r.code, label: r.label }))}
            />
          </Form.Item>
          <Form.Item
            name="bankBizCode"
            label="还款账户"
            rules={infoRules.bankBizCode}
            style={{ minWidth: 300 }}
          >
            <Select
              aria-label="还款账户"
              options={(banks.data ?? []).map((b) => ({ value: b.bizCode, label: accountLabel(b) }))}
            />
          </Form.Item>
          <Form.Item name="managerId" label="业务经理" rules={infoRules.managerId} style={{ minWidth: 200 }}>
            <Select
              allowClear
              options={(members.data ?? []).map((m) => ({
                value: m.userId,
                label: `${m.name}${m.deptName ? `（${m.deptName}）` : ''}`,
              }))}
            />
          </Form.Item>
        </Space>
        <Typography.Title level={5}>应收账款</Typography.Title>
        <Space style={{ marginBottom: 8 }}>
          <XlsxImportButton read={(f) => importContractReceivables(f, credBizCode).then(setRecPreview)}>
            导入应收账款
          </XlsxImportButton>
          <ImportTemplateButton kind="receivables" />
        </Space>
        <ListEditor
          name="receivables"
          rules={[listRule(infoSaveSchema.shape.receivables)]}
          testId="receivables-editor"
          addText="添加应收账款"
          removeLabel="删除应收账款"
          columns={[
            { name: 'invoiceCode', title: '发票代码', width: 140, input: <Input aria-label="发票代码" /> },
            { name: 'invoiceNo', title: '发票号码', width: 110, input: <Input aria-label="发票号码" /> },
            {
              name: 'invoiceDate',
              title: '开票日期',
              width: 140,
              input: <DateInput aria-label="开票日期" />,
            },
            { name: 'amount', title: '发票金额', width: 150, input: <MoneyInput aria-label="发票金额" /> },
            {
              name: 'debtorName',
              title: '债务人名称',
              width: 220,
              cell: (i: number) => (
                <DebtorCell
                  list="receivables"
                  index={i}
                  label="债务人名称"
                  rules={receivableRules.debtorName}
                />
              ),
            },
            { name: 'dueDate', title: '到期日', width: 140, input: <DateInput aria-label="到期日" /> },
          ].map((c) => ({ ...c, rules: receivableRules[c.name as keyof typeof receivableRules] }))}
        />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          付款方
        </Typography.Title>
        <ListEditor
          name="payers"
          rules={[listRule(infoSaveSchema.shape.payers)]}
          testId="payers-editor"
          addText="添加付款方"
          removeLabel="删除付款方"
          columns={[
            {
              name: 'payerName',
              title: '付款方名称',
              width: 220,
              rules: payerRules.payerName,
              cell: (i) => (
                <DebtorCell
                  list="payers"
                  index={i}
                  label="付款方名称"
                  nameField="payerName"
                  codeField="payerCode"
                  rules={payerRules.payerName}
                />
              ),
            },
            {
              name: 'accountName',
              title: '户名',
              width: 180,
              rules: payerRules.accountName,
              input: <Input aria-label="户名" />,
            },
            {
              name: 'accountNo',
              title: '账号',
              width: 200,
              rules: payerRules.accountNo,
              input: <Input aria-label="账号" />,
            },
            {
              name: 'bankName',
              title: '开户行',
              width: 180,
              rules: payerRules.bankName,
              input: <Input aria-label="开户行" />,
            },
          ]}
        />
        <Form.Item name="remark" label="备注" rules={infoRules.remark} style={{ marginTop: 16 }}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <SaveButtons save={save} submit={!!bizCode} testIds={{ save: 'save-info', submit: 'submit-info' }} />
      </Form>
      <ImportPreviewModal
        title="应收账款导入预览"
        preview={recPreview}
        columns={['invoiceCode', 'invoiceNo', 'invoiceDate', 'amount', 'debtorName', 'dueDate']}
        onCancel={() => setRecPreview(null)}
        onOk={() => {
          form.setFieldsValue({ receivables: (recPreview?.rows ?? []).map((r) => r.item) });
          setRecPreview(null);
        }}
      />
    </>
  );
}
