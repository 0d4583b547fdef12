import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import {
  Alert,
  Button,
  Descriptions,
  Form,
  Radio,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  type FormRule,
} from 'antd';
import {
  COMPONENT_LABELS,
  COMPONENTS,
  PAID_KIND_LABELS,
  PAID_PATHS,
  type Component,
  type OpenPlanItem,
  type PaidKind,
  paidLineSchema,
  paidSaveSchema,
  paidSuggestSchema,
} from '@portal/contract/accounts';
import { formatMoney } from '@portal/contract/format';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { DateInput } from '../../shared/form/DateInput';
import { usePageFormName } from '../../shared/form/form-name';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { isEnteredAmount, isPositiveAmount, openAmountRule } from '../../shared/form/open-amount';
import { fieldRules, zodRule } from '../../shared/form/zod-rule';
import { update } from '../../shared/request/http';
import { validFields, validValues } from '../../shared/ui/valid-values';
import { PAID_DOC, paidApi, paidQueries } from './api';
import { useDocSaved } from '../../shared/workflow/doc-kind';
import { useFormFill } from '../../shared/editor/use-form-fill';

/** The editor's fields: the head, the amount to allocate by the rule, and 本次 per cell of the grid. */
interface PaidFields {
  fiidBizCode?: string;
  contBizCode?: string;
  paidDate?: string;
  kind: PaidKind;
  amount?: string;
  /** 本次核销 by cellKey (an open plan item's component). */
  alloc?: Record<string, string | undefined>;
}
type Allocation = Record<string, string>;

const cellKey = (itemId: number, c: Component) => `${itemId}-${c}`;
const rules = fieldRules(paidSaveSchema);
const amountRules = [zodRule(paidSuggestSchema.shape.amount)];

const cellRule = (o: OpenPlanItem, c: Component): FormRule =>
  openAmountRule(
    paidLineSchema.shape.amount,
    o.open[c],
    `超过第${o.period}期待还${COMPONENT_LABELS[c]} ${formatMoney(o.open[c])}`,
  );

/** The lines to send: the grid's cells holding an amount above zero, in the grid's order. */
function chosenLines(items: readonly OpenPlanItem[], alloc: PaidFields['alloc']) {
  return items.flatMap((o) =>
    COMPONENTS.flatMap((c) => {
      const amount = alloc?.[cellKey(o.itemId, c)];
      return isPositiveAmount(amount) ? [{ itemId: o.itemId, component: c, amount }] : [];
    }),
  );
}

/** A cell the rule or the quote filled: shown, not typed. */
function AllocText({ value }: { value?: string }) {
  return <span>{value ? formatMoney(value) : '—'}</span>;
}

/**
 * 来款核销编辑: the incoming, the contract's open items as of the write-off date, and the
 * allocation being built (by the rule, an early-settlement quote, or by hand) with live totals.
 */
export default function PaidEditorPage() {
  const [params] = useSearchParams();
  const paidCode = params.get('paidBizCode') ?? '';
  const [form] = Form.useForm<PaidFields>();
  const formName = usePageFormName('paid');
  const [version, setVersion] = useState<number | undefined>();
  const [note, setNote] = useState<string | null>(null);
  const watchedFiid = Form.useWatch('fiidBizCode', form);
  const cont = Form.useWatch('contBizCode', form) ?? '';
  const paidDate = Form.useWatch('paidDate', form) ?? '';
  const kind = Form.useWatch('kind', form) ?? 'normal';
  const alloc = Form.useWatch('alloc', form);

  const existing = useQuery(paidQueries.view(paidCode));
  // A saved write-off keeps its incoming (no picker then).
  const fiid = (paidCode ? existing.data?.fiidBizCode : watchedFiid) ?? '';
  useFormFill(existing, (v) => {
    form.setFieldsValue({
      contBizCode: v.contBizCode,
      paidDate: v.paidDate,
      kind: v.kind,
      alloc: Object.fromEntries(v.lines.map((l) => [cellKey(l.itemId, l.component), l.amount])),
    });
    setVersion(v.version);
  });

  const incomes = useQuery(paidQueries.incomes(!paidCode));
  const init = useQuery(paidQueries.init(fiid));
  useEffect(() => {
    if (!init.data || paidCode) return;
    const { getFieldValue, setFieldsValue } = form;
    setFieldsValue({
      paidDate: (getFieldValue('paidDate') as string | undefined) || init.data.paidDate,
      amount: (getFieldValue('amount') as string | undefined) || init.data.income.balance,
    });
  }, [init.data, paidCode, form]);
  const plan = useQuery(paidQueries.plan(cont, paidDate));
  const items = plan.data?.items ?? [];

  const balance = new Decimal(init.data?.income.balance ?? existing.data?.income.balance ?? 0);
  const sum = chosenLines(items, alloc).reduce((s, l) => s.plus(l.amount), new Decimal(0));
  const after = balance.minus(sum);
  const entered = items.some((o) => COMPONENTS.some((c) => isEnteredAmount(alloc?.[cellKey(o.itemId, c)])));
  const blocked = !entered || after.isNeg();

  /** Replaces the whole allocation (every cell, typed or not), without the old cells' errors. */
  const replaceAlloc = (next: Allocation) => {
    const keys = new Set([...Object.keys(form.getFieldValue('alloc') ?? {}), ...Object.keys(next)]);
    form.setFields([...keys].map((k) => ({ name: ['alloc', k], value: next[k], errors: [] })));
  };

  const suggest = async () => {
    if (!fiid || !cont) return;
    const values = await validFields(form, ['paidDate', 'amount']);
    if (!values?.paidDate) return;
    setNote(null);
    const s = await paidApi
      .suggest(
        {
          fiidBizCode: fiid,
          contBizCode: cont,
          paidDate: values.paidDate,
          ...(values.amount && kind !== 'settlement' ? { amount: values.amount } : {}),
        },
        kind === 'settlement',
      )
      .catch(() => null);
    if (!s) return;
    replaceAlloc(Object.fromEntries(s.lines.map((l) => [cellKey(l.itemId, l.component), l.amount])));
    if (s.settlement)
      setNote(
        `提前结清需 ${formatMoney(s.settlement.total)}，减免利息 ${formatMoney(s.settlement.interestWaived)}、费用 ${formatMoney(s.settlement.feeWaived)}`,
      );
    else if (new Decimal(s.unallocated).gt(0))
      setNote(`有 ${formatMoney(s.unallocated)} 未能分配（计划已全部覆盖），将留在来款余额中`);
  };

  const saved = useDocSaved(PAID_DOC, paidCode);
  const save = async (submit: boolean) => {
    // Every field first (a cell over its open amount, a malformed date): nothing is asked or sent
    // while one is wrong.
    const values = await validValues(form);
    if (!values || !fiid || blocked) return;
    const r = await update<{ paidBizCode: string; version: number }>(
      PAID_PATHS.savePlanPaidInfo,
      {
        fiidBizCode: fiid,
        contBizCode: values.contBizCode,
        paidDate: values.paidDate,
        kind: values.kind,
        lines: chosenLines(items, values.alloc),
        ...(paidCode ? { paidBizCode: paidCode, version } : {}),
        submit,
      },
      { confirm: `此操作将保存来款核销${submit ? '并提交审批' : ''}！ 是否继续？` },
    ).catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.paidBizCode, submit);
  };

  const manual = kind === 'manual';
  const cell = (o: OpenPlanItem, c: Component) => (
    <Form.Item
      name={['alloc', cellKey(o.itemId, c)]}
      rules={manual ? [cellRule(o, c)] : []}
      style={{ marginBottom: 0 }}
    >
      {manual ? (
        <MoneyInput aria-label={`第${o.period}期${COMPONENT_LABELS[c]}`} style={{ width: 110 }} />
      ) : (
        <AllocText />
      )}
    </Form.Item>
  );

  const income = init.data?.income ?? existing.data?.income;
  return (
    <EditorFrame
      testId="paid-editor"
      title={paidCode ? `来款核销编辑 ${paidCode}` : '新增来款核销'}
      backTo={PAID_DOC.routes.list}
      doc={paidCode ? { docType: PAID_DOC.docType, docCode: paidCode } : undefined}
    >
      <Form<PaidFields>
        form={form}
        name={formName}
        initialValues={{ kind: 'normal', fiidBizCode: params.get('fiidBizCode') || undefined }}
        onValuesChange={(changed: Partial<PaidFields>) => {
          // Another incoming, contract or way of allocating starts the allocation afresh.
          if ('fiidBizCode' in changed) form.setFields([{ name: 'amount', value: undefined, errors: [] }]);
          if ('fiidBizCode' in changed || 'contBizCode' in changed || 'kind' in changed) {
            replaceAlloc({});
            setNote(null);
          }
        }}
      >
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {!paidCode ? (
            <Form.Item name="fiidBizCode" rules={rules.fiidBizCode} style={{ marginBottom: 0 }}>
              <Select
                aria-label="来款"
                placeholder="选择待核销的来款"
                style={{ width: 480 }}
                options={(incomes.data ?? []).map((i) => ({
                  value: i.fiidBizCode,
                  label: `${i.fiidBizCode} ${i.payerName} ${i.valueDate} 余额 ${formatMoney(i.balance)}`,
                }))}
              />
            </Form.Item>
          ) : null}
          {income ? (
            <Descriptions size="small" bordered column={3}>
              <Descriptions.Item label="来款编号">{income.fiidBizCode}</Descriptions.Item>
              <Descriptions.Item label="付款人">{income.payerName}</Descriptions.Item>
              <Descriptions.Item label="来款日期">{income.valueDate}</Descriptions.Item>
              <Descriptions.Item label="来款金额">{formatMoney(income.amount)}</Descriptions.Item>
              <Descriptions.Item label="可核销余额">{formatMoney(income.balance)}</Descriptions.Item>
              <Descriptions.Item label="银行流水号">{income.serialNo}</Descriptions.Item>
            </Descriptions>
          ) : null}
          <Space wrap align="start">
            <Form.Item name="contBizCode" rules={rules.contBizCode}>
              <Select
                aria-label="合同"
                placeholder="选择合同"
                style={{ width: 360 }}
                disabled={!!paidCode}
                options={(init.data?.contracts ?? []).map((c) => ({
                  value: c.contBizCode,
                  label: `${c.contractNo} ${c.custName} 待还本金 ${formatMoney(c.principalOpen)}`,
                }))}
              />
            </Form.Item>
            <Form.Item name="paidDate" label="核销日期" rules={rules.paidDate}>
              <DateInput aria-label="核销日期" />
            </Form.Item>
            <Form.Item name="kind" rules={rules.kind}>
              <Radio.Group
                options={Object.entries(PAID_KIND_LABELS).map(([value, label]) => ({ value, label }))}
              />
            </Form.Item>
            {kind !== 'settlement' ? (
              <Form.Item name="amount" label="核销金额" rules={amountRules}>
                <MoneyInput aria-label="核销金额" style={{ width: 160 }} />
              </Form.Item>
            ) : null}
            <Form.Item>
              <Button onClick={() => void suggest()} disabled={!fiid || !cont}>
                {kind === 'settlement' ? '测算提前结清' : '按规则分配'}
              </Button>
            </Form.Item>
          </Space>
          {note ? <Alert type="info" showIcon message={note} /> : null}
          {plan.data ? (
            <span data-testid="paid-as-of">
              金额截至 {plan.data.paidDate}（罚息累计与还款计划、台账同日一致）；本次可核销罚息计至{' '}
              {plan.data.penaltyThrough}（核销日当日还本的部分不计罚息）
            </span>
          ) : null}
          <Table<OpenPlanItem>
            data-testid="paid-open-items"
            size="small"
            rowKey="itemId"
            pagination={false}
            loading={plan.isFetching}
            dataSource={items}
            locale={{ emptyText: cont ? '没有待还的期次' : '请选择合同' }}
            columns={[
              { title: '期次', dataIndex: 'period', key: 'period', width: 60 },
              { title: '还款日', dataIndex: 'dueDate', key: 'dueDate' },
              {
                title: '状态',
                key: 'status',
                render: (_, o) => (
                  <Tag color={o.status === '逾期' ? 'red' : 'default'}>
                    {o.status}
                    {o.overdueDays ? ` ${o.overdueDays}天` : ''}
                  </Tag>
                ),
              },
              {
                title: `罚息累计（截至${paidDate}）`,
                key: 'penaltyAccrued',
                align: 'right' as const,
                render: (_: unknown, o: OpenPlanItem) => formatMoney(o.penaltyAccrued),
              },
              ...COMPONENTS.map((c) => ({
                title: `待还${COMPONENT_LABELS[c]}`,
                key: `open-${c}`,
                align: 'right' as const,
                render: (_: unknown, o: OpenPlanItem) => formatMoney(o.open[c]),
              })),
              ...COMPONENTS.map((c) => ({
                title: `本次${COMPONENT_LABELS[c]}`,
                key: `alloc-${c}`,
                align: 'right' as const,
                render: (_: unknown, o: OpenPlanItem) => cell(o, c),
              })),
            ]}
          />
          <Space size="large" data-testid="paid-totals">
            <Statistic title="本次核销合计" value={formatMoney(sum.toFixed(2))} />
            <Statistic title="来款可核销余额" value={formatMoney(balance.toFixed(2))} />
            <Statistic
              title="核销后来款余额"
              value={formatMoney(after.toFixed(2))}
              valueStyle={after.isNeg() ? { color: '#cf1322' } : undefined}
            />
          </Space>
          {after.isNeg() ? <Alert type="error" showIcon message="核销金额超过来款可核销余额" /> : null}
          <SaveButtons save={save} disabled={blocked} />
        </Space>
      </Form>
    </EditorFrame>
  );
}
