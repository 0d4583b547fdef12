import Decimal from 'decimal.js';
import { toChineseCapitals } from '../capitals';
import { formatMoney } from '../format';
import { expandFields, PRINT_CATALOGUES, type BizType, type PrintField } from '../print';
import type { PrintData, PrintRow } from './template';

/** A document's values by catalogue key, before formatting; null prints blank. */
export type RawValue = string | number | null;
export type RawRow = Readonly<Record<string, RawValue>>;
export interface RawPrintData {
  fields: Readonly<Record<string, RawValue>>;
  lists: Readonly<Record<string, readonly RawRow[]>>;
}

/** 0.085 → 8.5%. */
export function formatRate(value: string): string {
  const pct = new Decimal(value).times(100).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  return `${pct.toString()}%`;
}

/** 2026-11-23 → 2026年11月23日. */
export function chineseDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${y}年${Number(m)}月${Number(d)}日`;
}

function formatRow(fields: readonly PrintField[], raw: Readonly<Record<string, RawValue>>, where: string) {
  const out: Record<string, string> = {};
  for (const field of fields) {
    if (!(field.key in raw)) throw new Error(`print data of ${where} lacks the field ${field.key}`);
    const value = raw[field.key];
    const text = value === null || value === undefined ? '' : String(value);
    if (field.kind === 'money') {
      out[field.key] = text === '' ? '' : formatMoney(text);
      out[`${field.key}Capitals`] = text === '' ? '' : toChineseCapitals(text);
    } else if (field.kind === 'rate') {
      out[field.key] = text === '' ? '' : formatRate(text);
    } else {
      out[field.key] = text;
    }
  }
  return out;
}

/**
 * A document's raw values formatted as its catalogue says (money with thousands separators and
 * 大写 twin, rates as percentages). A catalogue field the loader did not supply is a programming
 * error, so catalogue and loaders cannot drift apart unnoticed.
 */
export function buildPrintData(bizType: BizType, raw: RawPrintData): PrintData {
  const catalogue = PRINT_CATALOGUES[bizType];
  const data: Record<string, string | readonly PrintRow[]> = formatRow(catalogue.fields, raw.fields, bizType);
  for (const list of catalogue.lists) {
    const rows = raw.lists[list.key];
    if (!rows) throw new Error(`print data of ${bizType} lacks the list ${list.key}`);
    data[list.key] = rows.map((row) => formatRow(list.fields, row, `${bizType}.${list.key}`));
  }
  return data;
}

/** The catalogue's sample values (three rows per list), for the editor's live preview. */
export function sampleData(bizType: BizType): PrintData {
  const catalogue = PRINT_CATALOGUES[bizType];
  const sample = (fields: readonly PrintField[]) => Object.fromEntries(fields.map((x) => [x.key, x.sample]));
  return buildPrintData(bizType, {
    fields: sample(catalogue.fields),
    lists: Object.fromEntries(
      catalogue.lists.map((l) => [
        l.key,
        [1, 2, 3].map((n) => ({
          ...sample(l.fields),
          ...('period' in sample(l.fields) ? { period: n } : {}),
        })),
      ]),
    ),
  });
}

/** Every placeholder the editor offers for a type, as `{{key}}` with its label. */
export function placeholderHints(bizType: BizType) {
  const catalogue = PRINT_CATALOGUES[bizType];
  return {
    fields: expandFields(catalogue.fields),
    lists: catalogue.lists.map((l) => ({ key: l.key, label: l.label, fields: expandFields(l.fields) })),
  };
}
