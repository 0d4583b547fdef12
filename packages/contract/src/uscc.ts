import { z } from 'zod';

/**
 * GB 32100-2015 统一社会信用代码 (unified social credit code), 18 characters:
 *
 * | position | content                                   | checked here                 |
 * | -------- | ----------------------------------------- | ---------------------------- |
 * | 1        | 登记管理部门代码 (1, 5, 9, Y, ...)          | any alphabet character       |
 * | 2        | 机构类别代码                                | any alphabet character       |
 * | 3–8      | 登记管理机关行政区划码 (GB/T 2260)          | six digits                   |
 * | 9–17     | 主体标识码 (组织机构代码, GB 11714)         | any alphabet characters      |
 * | 18       | 校验码 over positions 1–17                  | must match `usccCheckChar`   |
 *
 * The alphabet is 0-9 and the capital letters without I, O, Z, S, V; a character's value is its index
 * (0..30). Check value = 31 − (Σ value × weight mod 31), where 31 becomes 0.
 *
 * `isValidUscc` and `usccProblem` take the string as it is (capitals only, no blanks); the `uscc()` field
 * schema trims and upper-cases user input before checking it.
 */

export const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
export const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28] as const;
export const USCC_LENGTH = 18;

/** The structure of positions 1–18 except the check value (see the table above). */
export const USCC_PATTERN = /^[0-9A-HJ-NP-RTUW-Y]{2}\d{6}[0-9A-HJ-NP-RTUW-Y]{10}$/;

const DEFAULT_LABEL = '统一社会信用代码';

export const usccMessages = (label = DEFAULT_LABEL) => ({
  length: `${label}应为18位`,
  charset: `${label}含有非法字符`,
  check: `${label}校验位不正确`,
});

/**
 * The check character (position 18) for the first 17 characters of a code. Throws a RangeError when
 * `first17` is not 17 characters of the alphabet (the 3–8 digits rule is not applied here).
 */
export function usccCheckChar(first17: string): string {
  if (first17.length !== USCC_WEIGHTS.length) {
    throw new RangeError(`统一社会信用代码本体应为17位：${first17}`);
  }
  let sum = 0;
  for (let i = 0; i < USCC_WEIGHTS.length; i++) {
    const value = USCC_ALPHABET.indexOf(first17.charAt(i));
    if (value < 0) throw new RangeError(`统一社会信用代码含有非法字符：${first17}`);
    sum += value * (USCC_WEIGHTS[i] as number);
  }
  return USCC_ALPHABET.charAt((31 - (sum % 31)) % 31);
}

/** Why `code` is not a valid unified social credit code, in Chinese; null when it is valid. */
export function usccProblem(code: string, label = DEFAULT_LABEL): string | null {
  const m = usccMessages(label);
  if (code.length !== USCC_LENGTH) return m.length;
  if (!USCC_PATTERN.test(code)) return m.charset;
  if (usccCheckChar(code.slice(0, 17)) !== code.charAt(17)) return m.check;
  return null;
}

export function isValidUscc(code: string): boolean {
  return usccProblem(code) === null;
}

/** Field schema: a required code, trimmed and upper-cased, then checked (messages name the field). */
export function uscc(label = DEFAULT_LABEL) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined || iss.input === null || iss.input === ''
          ? `${label}不能为空`
          : `${label}格式不正确`,
    })
    .normalize('NFKC')
    .trim()
    .toUpperCase()
    .superRefine((value, ctx) => {
      const problem = value === '' ? `${label}不能为空` : usccProblem(value, label);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}
