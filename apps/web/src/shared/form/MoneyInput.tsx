import { useRef, type CSSProperties } from 'react';
import { InputNumber } from 'antd';

/** Thousands separators and two decimals for display; more decimals stay visible (and refused). */
export function formatMoneyText(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!m) return value;
  const [, sign, int, frac = ''] = m;
  const grouped = (int ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}.${frac.length <= 2 ? frac.padEnd(2, '0') : frac}`;
}

/**
 * What the user typed as a plain decimal string: full-width digits and signs folded (NFKC), the
 * minus sign U+2212 read as '-', separators and spaces dropped. Nothing is rounded.
 */
export function parseMoneyText(text: string | undefined): string {
  return (text ?? '')
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\uFE63]/g, '-')
    .replace(/[,\s\u3001\uFF0C]/g, '');
}

/** A decimal string without leading or trailing zeros ('0500.10' and '500.1' are one amount). */
function canonical(v: string): string {
  const m = /^(-?)0*(\d*?)(?:\.(\d*?)0*)?$/.exec(v);
  if (!m) return v;
  const [, sign, int = '', frac = ''] = m;
  const body = `${int || '0'}${frac ? `.${frac}` : ''}`;
  return body === '0' ? '0' : `${sign}${body}`;
}

export interface MoneyInputProps {
  id?: string;
  value?: string | null;
  onChange?: (value: string | undefined) => void;
  onBlur?: () => void;
  disabled?: boolean;
  placeholder?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

/**
 * A money field (thousands separators, 2 decimals): antd InputNumber in string mode, so
 * the value stays an exact decimal string and never passes through a JS number.
 *
 * Deliberately without InputNumber's `precision` and `min`: both correct the input silently on
 * blur (12.345 would become 12.35, −5 would become the minimum). Money typed wrong is refused
 * instead, by the field's contract schema rule (`zodRule`), with the schema's message.
 */
export function MoneyInput({ value, onChange, style, placeholder = '0.00', ...rest }: MoneyInputProps) {
  // InputNumber reports '500000' for a typed '500000.00': the form gets the text as typed when it is
  // the same amount, so what the user wrote is what is sent (and compared with a stored '500000.00').
  const typed = useRef('');
  return (
    <InputNumber<string>
      {...rest}
      stringMode
      controls={false}
      keyboard={false}
      placeholder={placeholder}
      style={{ width: 200, ...style }}
      value={value ?? null}
      onChange={(v) => {
        if (v === null || v === '') onChange?.(undefined);
        else onChange?.(canonical(typed.current) === canonical(v) ? typed.current : v);
      }}
      formatter={(v, info) => (info.userTyping ? info.input : formatMoneyText(v))}
      parser={(text) => (typed.current = parseMoneyText(text))}
    />
  );
}
