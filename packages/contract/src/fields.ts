import Decimal from 'decimal.js';
import { z } from 'zod';

/**
 * Field builders whose every message names the field in Chinese, so the same schema gives the
 * browser form and the server's 400 answer the same words (docs/protocol.md "Status codes and messages").
 */

const missing = (label: string) => `${label}不能为空`;
const malformed = (label: string) => `${label}格式不正确`;

function typeError(label: string) {
  return (iss: { input?: unknown }) =>
    iss.input === undefined || iss.input === null || iss.input === '' ? missing(label) : malformed(label);
}

export const MAX_TEXT = 200;

/**
 * The blank fillers: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the empty Braille
 * pattern (U+2800), drawn as blank space but not default-ignorable in every Unicode version.
 */
const BLANK_FILLERS = '\u115F\u1160\u3164\uFFA0\u2800';

/**
 * Characters that show nothing (SECURITY.md "Input"), decided by Unicode property rather than a
 * list: default-ignorable code points (zero-width characters, tag characters U+E0000–E007F,
 * variation selectors…), format characters (Cf: bidirectional overrides and isolates, the soft
 * hyphen, the BOM), the line and paragraph separators (Zl, Zp), lone UTF-16 surrogates (they
 * cannot be stored as UTF-8), and the blank fillers.
 */
const INVISIBLE_CLASS = String.raw`\p{Default_Ignorable_Code_Point}\p{Cf}\p{Zl}\p{Zp}\p{Cs}${BLANK_FILLERS}`;
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');
/** Control characters (Cc, C0 and C1 with NUL and DEL); tab, CR and LF only in multi-line text. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;
const LINE_BREAKS = /[\t\n\r]/;

/**
 * True when `v` holds a character refused in every text field (invisible or control characters;
 * U+202E turns `invoice\u202Efdp.exe.pdf` around on screen), or a line break or tab unless `multiline`.
 */
export function hasForbiddenChars(v: string, multiline = false): boolean {
  return INVISIBLE.test(v) || CONTROL.test(v) || (!multiline && LINE_BREAKS.test(v));
}

export const forbiddenCharsMessage = (label: string) => `${label}不能包含控制字符、换行或不可见字符`;

export interface TextOptions {
  /** Free text of several lines (remarks, reasons, opinions): tab and line breaks allowed. */
  multiline?: boolean;
  /**
   * NFKC-normalise: for identifiers typed by people (contract numbers, serials) where a
   * full-width `ＨＴ００１` and `HT001` must be one value.
   */
  nfkc?: boolean;
  /** A bank serial number: normalised as normalizeSerial says (NFKC, invisibles out, upper case). */
  serial?: boolean;
}

function textString(label: string, max: number, opts: TextOptions) {
  const base = z.string({ error: typeError(label) });
  const normalised = opts.serial
    ? base.overwrite(normalizeSerial)
    : opts.nfkc
      ? base.normalize('NFKC').trim()
      : base.trim();
  return normalised
    .refine((v) => !hasForbiddenChars(v, opts.multiline), forbiddenCharsMessage(label))
    .refine((v) => v.length <= max, `${label}不能超过${max}个字符`);
}

/** Required trimmed text, 1..max characters, without control or invisible characters. */
export function text(label: string, max = MAX_TEXT, opts: TextOptions = {}) {
  return textString(label, max, opts).refine((v) => v.length > 0, missing(label));
}

/** Optional text: absent, null or blank become undefined. */
export function optionalText(label: string, max = MAX_TEXT, opts: TextOptions = {}) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    textString(label, max, opts).optional(),
  );
}

/** The invisible characters of any text field: nothing a person sees in a pasted serial. */
const SERIAL_INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');

/**
 * A bank serial number as compared and stored (docs/money-rules.md "Bank serial numbers"):
 * NFKC (full-width digits and letters become ASCII), invisible characters removed (every one
 * hasForbiddenChars refuses except controls, which the field still refuses), trimmed, upper-cased.
 * `ａｂ１２\u200B`, `AB\u{E0041}12` and `AB12` are one serial.
 */
export function normalizeSerial(v: string): string {
  return v.normalize('NFKC').replace(SERIAL_INVISIBLE, '').trim().toUpperCase();
}

/** A required bank serial number, normalised (normalizeSerial) before any other check. */
export function serialNo(label: string, max = 64) {
  return text(label, max, { serial: true });
}

/** An optional serial filter, normalised the same way; blank becomes undefined. */
export function optionalSerialNo(label: string, max = 64) {
  return optionalText(label, max, { serial: true });
}

export const CODE_PATTERN = /^\d{12}$/;

/** A 12-digit business code (docs/protocol.md "Values on the wire"). */
export function code(label: string) {
  // NFKC: a code typed or pasted in full-width digits is the same code.
  return z
    .string({ error: typeError(label) })
    .normalize('NFKC')
    .regex(CODE_PATTERN, `${label}必须是12位数字编号`);
}

export function optionalCode(label: string) {
  return z.preprocess((v) => (v === null || v === '' ? undefined : v), code(label).optional());
}

/** Decimal string with at most 2 decimals and 16 integer digits (NUMERIC(18,2)). */
export const MONEY_PATTERN = /^-?\d{1,16}(\.\d{1,2})?$/;

/**
 * Money: no trimming. The published pattern (OpenAPI) is the whole rule, so " 100.00" is refused
 * here exactly as a client that reads the pattern would refuse it.
 */
export function money(label: string, opts: { min?: 'positive' | 'nonNegative' } = { min: 'nonNegative' }) {
  return z
    .string({ error: typeError(label) })
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

/** An optional amount (a list filter's bound): absent, null or '' become undefined. */
export function optionalMoney(label: string) {
  return z.preprocess((v) => (v === null || v === '' ? undefined : v), money(label).optional());
}

/**
 * A list's amount range (docs/protocol.md "Lists": `xxxStart`/`xxxEnd`): `amountStart` and `amountEnd`,
 * both inclusive, either may be left open.
 */
export function moneyRange<const K extends string>(key: K, label: string) {
  const start = optionalMoney(`${label}起`);
  MONEY_RANGES.set(start, { key, label });
  return {
    [`${key}Start`]: start,
    [`${key}End`]: optionalMoney(`${label}止`),
  } as Record<`${K}Start` | `${K}End`, ReturnType<typeof optionalMoney>>;
}

/** The `xxxStart` schemas made by `moneyRange`, with their range's key and label (read by `listSchema`). */
const MONEY_RANGES = new WeakMap<z.ZodType, { key: string; label: string }>();

/** The range a list filter's schema opens (`moneyRange`'s `xxxStart`), if it is one. */
export function moneyRangeOf(schema: unknown): { key: string; label: string } | undefined {
  return schema instanceof z.ZodType ? MONEY_RANGES.get(schema) : undefined;
}

/**
 * The message for crossed bounds of an amount range (起 above 止), or undefined: both the list
 * schemas (400 instead of a silently empty list) and the range filter of the list screens use it
 * (docs/protocol.md "Lists"). Bounds that are not amounts are the fields' own errors, not this one.
 */
export function moneyRangeError(label: string, start: unknown, end: unknown): string | undefined {
  if (typeof start !== 'string' || typeof end !== 'string') return undefined;
  if (!MONEY_PATTERN.test(start) || !MONEY_PATTERN.test(end)) return undefined;
  return new Decimal(start).gt(end) ? `${label}起不能大于${label}止` : undefined;
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

/** An editable record's optimistic-lock version (docs/protocol.md "Versions and optimistic locking"). */
export const version = int('版本号', 0, 2_147_483_647);

/** docs/protocol.md "Lists": list paging, pageNum from 1, pageSize 1..500, default 20. */
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

/** GB/T 2260 six-digit division code: province 110000, city 110100, district 110101. */
export const divisionCode = (label: string) =>
  z.string({ error: `${label}不能为空` }).regex(/^\d{6}$/, `${label}必须是6位行政区划代码`);

export const pidQuery = z.object({ pid: divisionCode('上级区划') });
