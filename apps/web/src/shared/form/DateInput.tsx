import type { CSSProperties } from 'react';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

export const DATE_FORMAT = 'YYYY-MM-DD';

function toDayjs(value: string | null | undefined): Dayjs | null {
  if (!value) return null;
  const d = dayjs(value, DATE_FORMAT, true);
  return d.isValid() ? d : null;
}

export interface DateInputProps {
  id?: string;
  /** 'YYYY-MM-DD' at the form boundary: the form's value, the contract schema's input. */
  value?: string | null;
  onChange?: (value: string | undefined) => void;
  disabled?: boolean;
  placeholder?: string;
  allowClear?: boolean;
  style?: CSSProperties;
  'aria-label'?: string;
}

/**
 * A date field: antd DatePicker whose value is kept as a 'YYYY-MM-DD' string, so forms, contract
 * schemas and the wire all see the same text. The date may be picked or typed; a complete typed
 * date is the field's value as soon as it is typed.
 */
export function DateInput({ value, onChange, placeholder = DATE_FORMAT, style, ...rest }: DateInputProps) {
  return (
    <DatePicker
      {...rest}
      format={DATE_FORMAT}
      placeholder={placeholder}
      style={{ width: 160, ...style }}
      value={toDayjs(value)}
      onChange={(d: Dayjs | null) => onChange?.(d ? d.format(DATE_FORMAT) : undefined)}
      // A complete date typed (or picked) reaches the form at once, not only when the field loses
      // focus: 保存 clicked right after typing would otherwise validate before the date arrives.
      onCalendarChange={(d: Dayjs | Dayjs[] | null) => {
        const day = Array.isArray(d) ? d[0] : d;
        if (day?.isValid() && day.format(DATE_FORMAT) !== value) onChange?.(day.format(DATE_FORMAT));
      }}
    />
  );
}
