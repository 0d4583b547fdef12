import { Form, Input, Select, type FormRule } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { debtorDictQueries } from './api';

/** The debtors a picker offers: enabled customers in the buyer or core role (docs/credit.md "Debtors"). */
export function useDebtorDict() {
  return useQuery(debtorDictQueries.dict());
}

export const UNMATCHED_TAG = '（待匹配）';

/**
 * The debtor of one row of a list (保理授信, 应收账款, 付款方): a picker over the debtor customers
 * bound to the row's code field, keeping the row's name field to the chosen customer's name. A
 * row saved earlier with a name only (not linked yet) shows that name marked 待匹配 until a
 * customer is chosen.
 */
export function DebtorCell(props: {
  /** The Form.List's path. */
  list: string;
  index: number;
  label: string;
  nameField?: string;
  codeField?: string;
  rules?: FormRule[];
}) {
  const nameField = props.nameField ?? 'debtorName';
  const codeField = props.codeField ?? 'debtorCode';
  const form = Form.useFormInstance();
  const code = Form.useWatch([props.list, props.index, codeField], form) as string | null | undefined;
  return (
    <>
      <Form.Item name={[props.index, codeField]} hidden>
        <Input />
      </Form.Item>
      <Form.Item name={[props.index, nameField]} rules={props.rules} style={{ marginBottom: 8 }}>
        <DebtorSelect
          label={props.label}
          code={code ?? undefined}
          onPick={(c) => form.setFieldValue([props.list, props.index, codeField], c)}
        />
      </Form.Item>
    </>
  );
}

/** The picker itself: `value` is the name (the form's field), `code` the linked customer. */
function DebtorSelect(props: {
  label: string;
  code: string | undefined;
  onPick: (code: string) => void;
  value?: string;
  onChange?: (name: string) => void;
}) {
  const dict = useDebtorDict();
  const { code, value: name } = props;
  const picks = dict.data ?? [];
  const options = picks.map((p) => ({ value: p.code, label: p.label, title: p.label }));
  // Linked: the code; otherwise the bare name, shown as waiting for a person.
  const value = code || (name ? `name:${name}` : undefined);
  if (code && !picks.some((p) => p.code === code))
    options.unshift({ value: code, label: name ?? code, title: code });
  if (!code && name)
    options.unshift({ value: `name:${name}`, label: `${name}${UNMATCHED_TAG}`, title: name });
  return (
    <Select
      aria-label={props.label}
      showSearch
      optionFilterProp="label"
      placeholder="选择债务人"
      loading={dict.isLoading}
      options={options}
      value={value}
      style={{ width: '100%' }}
      onChange={(v: string) => {
        const pick = picks.find((p) => p.code === v);
        if (!pick) return;
        props.onPick(pick.code);
        props.onChange?.(pick.label);
      }}
    />
  );
}
