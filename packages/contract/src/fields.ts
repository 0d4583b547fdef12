import { z } from 'zod';

/**
 * Field builders whose every message names the field in Chinese, so the same schema gives the
 * browser form and the server's 400 answer the same words (PROTOCOL.md §1: `msg` names the field).
 */

const missing = (label: string) => `${label}不能为空`;
const malformed = (label: string) => `${label}格式不正确`;

function typeError(label: string) {
  return (iss: { input?: unknown }) =>
    iss.input === undefined || iss.input === null || iss.input === '' ? missing(label) : malformed(label);
}

export const MAX_TEXT = 200;

/** Required trimmed text, 1..max characters. */
export function text(label: string, max = MAX_TEXT) {
  return z
    .string({ error: typeError(label) })
    .trim()
    .min(1, missing(label))
    .max(max, `${label}不能超过${max}个字符`);
}

/** Optional text: absent, null or blank become undefined. */
export function optionalText(label: string, max = MAX_TEXT) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z
      .string({ error: typeError(label) })
      .trim()
      .max(max, `${label}不能超过${max}个字符`)
      .optional(),
  );
}

export const CODE_PATTERN = /^\d{12}$/;

/** A 12-digit business code (PROTOCOL.md §5). */
export function code(label: string) {
  return z.string({ error: typeError(label) }).regex(CODE_PATTERN, `${label}必须是12位数字编号`);
}

export function optionalCode(label: string) {
  return z.preprocess((v) => (v === null || v === '' ? undefined : v), code(label).optional());
}

/** Money: decimal string with at most 2 decimals and 16 integer digits (NUMERIC(18,2)). */
export const MONEY_PATTERN = /^-?\d{1,16}(\.\d{1,2})?$/;

export function money(label: string, opts: { min?: 'positive' | 'nonNegative' } = { min: 'nonNegative' }) {
  return z
    .string({ error: typeError(label) })
    .trim()
    .regex(MONEY_PATTERN, `${label}必须是最多两位小数的金额`)
    .refine(
      (v) => {
        if (opts.min === 'positive') return !v.startsWith('-') && /[1-9]/.test(v);
        if (opts.min === 'nonNegative') return !v.startsWith('-') || !/[1-9]/.test(v);
        return true;
      },
      opts.min === 'positive' ? `${label}必须大于0` : `${label}不能为负数`,
    );
}

/** A rate as a decimal fraction a year ("0.0850" is 8.5 %), 0 to 10 (1000 %). */
export const RATE_PATTERN = /^\d{1,2}(\.\d{1,8})?$/;

export function rate(label: string) {
  return z
    .string({ error: typeError(label) })
    .trim()
    .regex(RATE_PATTERN, `${label}必须是不超过8位小数的非负小数`);
}

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function isRealDate(v: string): boolean {
  if (!DATE_PATTERN.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number) as [number, number, number];
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days && y >= 1900 && y <= 2200;
}

/** A calendar date YYYY-MM-DD that exists (2024-02-30 is refused). */
export function date(label: string) {
  return z.string({ error: typeError(label) }).refine(isRealDate, `${label}必须是有效日期（YYYY-MM-DD）`);
}

export function optionalDate(label: string) {
  return z.preprocess((v) => (v === null || v === '' ? undefined : v), date(label).optional());
}

export function int(label: string, min: number, max: number) {
  return z
    .number({ error: typeError(label) })
    .int(`${label}必须是整数`)
    .min(min, `${label}不能小于${min}`)
    .max(max, `${label}不能大于${max}`);
}

export function oneOf<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z.enum(values, {
    error: (iss) => (iss.input === undefined ? missing(label) : `${label}取值不正确`),
  });
}

/** An optional choice: absent, null or '' become undefined. */
export function optionalOneOf<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z.preprocess((v) => (v === null || v === '' ? undefined : v), oneOf(label, values).optional());
}

export function bool(label: string) {
  return z.boolean({ error: typeError(label) });
}

/** An editable record's optimistic-lock version (PROTOCOL.md §5). */
export const version = int('版本号', 0, 2_147_483_647);

/** PROTOCOL.md §4: list paging, pageNum from 1, pageSize 1..500, default 20. */
export const pageQuery = {
  pageNum: z.preprocess((v) => (v === undefined || v === null ? 1 : v), int('页码', 1, 1_000_000)),
  pageSize: z.preprocess((v) => (v === undefined || v === null ? 20 : v), int('每页条数', 1, 500)),
  order: z.preprocess(
    (v) => (v === null || v === '' ? undefined : v),
    oneOf('排序方向', ['asc', 'desc']).optional(),
  ),
};

export function orderBy<const T extends readonly [string, ...string[]]>(columns: T) {
  return z.preprocess((v) => (v === null || v === '' ? undefined : v), oneOf('排序字段', columns).optional());
}

/** Query `?bizCode=` of view/delete/audit calls. */
export const bizCodeQuery = z.object({ bizCode: code('编号') });
export const emptyBody = z.object({}).passthrough();

/** GB/T 2260 six-digit division code: province 110000, city 110100, district 110101. */
export const divisionCode = (label: string) =>
  z.string({ error: `${label}不能为空` }).regex(/^\d{6}$/, `${label}必须是6位行政区划代码`);

export const pidQuery = z.object({ pid: divisionCode('上级区划') });
