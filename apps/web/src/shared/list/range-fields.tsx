import { DatePicker, Form, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { MoneyInput } from '../form/MoneyInput';

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

/** An amount range filter: 起 and 止 as exact decimal strings (MoneyInput), either may stay empty. */
export function MoneyRangeField({ name, label }: { name: string; label: string }) {
  return (
    <Form.Item label={label}>
      <Space.Compact>
        <Form.Item name={[name, 0]} noStyle>
          <MoneyInput aria-label={`${label}起`} placeholder="最小" style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name={[name, 1]} noStyle>
          <MoneyInput aria-label={`${label}止`} placeholder="最大" style={{ width: 120 }} />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}
