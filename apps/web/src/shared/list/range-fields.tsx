import { DatePicker, Form, Input, Space } from 'antd';
import type { FormRule } from 'antd';
import type { Dayjs } from 'dayjs';
import { MONEY_PATTERN, moneyRangeError, optionalMoney } from '@portal/contract/fields';
import { formatMoneyText, parseMoneyText } from '../form/MoneyInput';

/**
 * Range filters of the list pages (docs/architecture.md "List filters and exports"): a field keeps
 * its pair under one form name, and `rangeFilters` turns each pair into the list call's two keys.
 */

/** Form name → the list call's [from, to] keys, e.g. `{ valueDate: ['valueDateFrom', 'valueDateTo'] }`. */
export type RangeKeys = Readonly<Record<string, readonly [string, string]>>;

function bound(v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'object' && 'format' in v && typeof (v as Dayjs).format === 'function')
    return (v as Dayjs).format('YYYY-MM-DD');
  // An amount bound as the user typed it ('1,000.50'): the plain decimal string.
  if (typeof v === 'string') return parseMoneyText(v) || undefined;
  return v;
}

/**
 * The list page's `toFilters` for these ranges: each pair becomes its two keys (an open bound is
 * left out), the other values pass through, then `then` (a screen's own mapping) if given.
 */
export function rangeFilters(
  ranges: RangeKeys,
  then?: (values: Record<string, unknown>) => Record<string, unknown>,
): (values: Record<string, unknown>) => Record<string, unknown> {
  return (values) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) {
      const keys = ranges[k];
      if (!keys) {
        out[k] = v;
        continue;
      }
      const pair = Array.isArray(v) ? v : [];
      const from = bound(pair[0]);
      const to = bound(pair[1]);
      if (from !== undefined) out[keys[0]] = from;
      if (to !== undefined) out[keys[1]] = to;
    }
    return then ? then(out) : out;
  };
}

/** A date range filter: one picker, either end may stay open. */
export function DateRangeField({ name, label }: { name: string; label: string }) {
  return (
    <Form.Item name={name} label={label}>
      <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
    </Form.Item>
  );
}

/**
 * One bound of an amount range: the text as typed (a money InputNumber would drop letters without
 * a word, and the list would quietly run unfiltered), shown with separators once it is an amount.
 */
function MoneyBoundInput({
  value,
  onChange,
  ...rest
}: {
  value?: string;
  onChange?: (v: string | undefined) => void;
  'aria-label': string;
  placeholder: string;
}) {
  return (
    <Input
      {...rest}
      allowClear
      style={{ width: 130 }}
      value={value ?? ''}
      onChange={(e) => onChange?.(e.target.value === '' ? undefined : e.target.value)}
      onBlur={() => {
        const plain = parseMoneyText(value);
        if (MONEY_PATTERN.test(plain) && formatMoneyText(plain) !== value) onChange?.(formatMoneyText(plain));
      }}
    />
  );
}

/** The rules of a range's two bounds: each an amount (the list schema's words), 起 not above 止. */
export function moneyRangeRules(name: string, label: string): { start: FormRule[]; end: FormRule[] } {
  const plain = (v: unknown) => (typeof v === 'string' ? parseMoneyText(v) || undefined : v);
  const asAmount = (bound: '起' | '止'): FormRule => {
    const schema = optionalMoney(`${label}${bound}`);
    return {
      validator: (_r, v: unknown) => {
        const result = schema.safeParse(plain(v));
        return result.success
          ? Promise.resolve()
          : Promise.reject(new Error(result.error.issues[0]?.message));
      },
    };
  };
  const ordered: FormRule = ({ getFieldValue }) => ({
    validator: (_r, end: unknown) => {
      const start: unknown = getFieldValue([name, 0]);
      const message = moneyRangeError(label, plain(start), plain(end));
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });
  return { start: [asAmount('起')], end: [asAmount('止'), ordered] };
}

/**
 * An amount range filter: 起 and 止, either may stay empty. 查询 checks both first (docs/architecture.md
 * "List filters and exports"): text or a bound above the other is the field's message, not a call
 * that answers an empty list; the server refuses the same with the same words (`moneyRangeError`).
 */
export function MoneyRangeField({ name, label }: { name: string; label: string }) {
  const rules = moneyRangeRules(name, label);
  return (
    <Form.Item label={label} required={false}>
      <Space.Compact>
        <Form.Item name={[name, 0]} noStyle rules={rules.start}>
          <MoneyBoundInput aria-label={`${label}起`} placeholder="最小" />
        </Form.Item>
        <Form.Item name={[name, 1]} noStyle rules={rules.end} dependencies={[[name, 0]]}>
          <MoneyBoundInput aria-label={`${label}止`} placeholder="最大" />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}
