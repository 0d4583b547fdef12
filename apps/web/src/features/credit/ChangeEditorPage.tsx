import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select } from 'antd';
import {
  CHANGE_TYPE_LABELS,
  CREDIT_PATHS,
  LINE_KIND_LABELS,
  type ChangeView,
  changeSaveSchema,
} from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { DateInput } from '../../shared/form/DateInput';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { formRules } from '../../shared/form/zod-rule';
import { usePageFormName } from '../../shared/form/form-name';
import { creditQueries } from './api';
import { CreditDocEditor, type CreditDocSpec } from './CreditDocEditor';
import { CHANGE_DOC } from './doc-kinds';
import { labelOptions } from '../../shared/form/label-options';

const rules = formRules(changeSaveSchema);

const SPEC: CreditDocSpec = {
  kind: CHANGE_DOC,
  what: '额度变更',
  savePath: CREDIT_PATHS.saveCredChange,
  testId: 'chg-editor',
};

type Values = Record<string, string | undefined>;

const toForm = (c: ChangeView): Values => ({
  credBizCode: c.credBizCode,
  lineCode: c.lineCode,
  changeType: c.changeType,
  newLimit: c.newLimit ?? undefined,
  newEndDate: c.newEndDate ?? undefined,
  reason: c.reason,
});

/** 额度变更编辑: raise, lower, extend, freeze or unfreeze one line of an approved credit. */
export default function ChangeEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const [form] = Form.useForm<Values>();
  const formName = usePageFormName('change');
  const credBizCode = Form.useWatch('credBizCode', form);
  const changeType = Form.useWatch('changeType', form);

  const change = useQuery(creditQueries.change(bizCode));
  const credits = useQuery(creditQueries.approvedCredits());
  const credit = credits.data?.list.find((c) => c.bizCode === credBizCode);
  const lines = useQuery(creditQueries.lines(credit?.custCode));
  const ft = useQuery(creditQueries.ft(credBizCode));
  const platform = useQuery(creditQueries.platform(credBizCode));
  const candidates = [
    ...(platform.data?.line ? [platform.data.line] : []),
    ...(ft.data ?? []).flatMap((f) => (f.line ? [f.line] : [])),
    ...(lines.data ?? []).filter((l) => l.kind === 'distribution'),
  ];

  return (
    <CreditDocEditor<Values, ChangeView>
      spec={SPEC}
      bizCode={bizCode}
      read={change}
      toForm={toForm}
      form={form}
      formName={formName}
      initialValues={{ changeType: 'raise' }}
      credRule={rules.credBizCode}
      formStyle={{ maxWidth: 640 }}
    >
      <Form.Item name="lineCode" label="额度（默认平台额度）" rules={rules.lineCode}>
        <Select
          allowClear
          aria-label="额度"
          options={candidates.map((l) => ({
            value: l.lineCode,
            label: `${l.lineCode} ${LINE_KIND_LABELS[l.kind]} ${l.debtorName ?? l.custName} 额度 ${formatMoney(l.limitAmount)} 已占用 ${formatMoney(l.occupiedAmount)}`,
          }))}
        />
      </Form.Item>
      <Form.Item name="changeType" label="变更类型" rules={rules.changeType}>
        <Select aria-label="变更类型" options={labelOptions(CHANGE_TYPE_LABELS)} />
      </Form.Item>
      {changeType === 'raise' || changeType === 'lower' ? (
        <Form.Item name="newLimit" label="变更后额度" required rules={rules.newLimit}>
          <MoneyInput aria-label="变更后额度" />
        </Form.Item>
      ) : null}
      {changeType === 'extend' ? (
        <Form.Item name="newEndDate" label="变更后到期日" required rules={rules.newEndDate}>
          <DateInput aria-label="变更后到期日" />
        </Form.Item>
      ) : null}
      <Form.Item name="reason" label="变更原因" rules={rules.reason}>
        <Input.TextArea aria-label="变更原因" rows={2} maxLength={500} />
      </Form.Item>
    </CreditDocEditor>
  );
}
