import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidUscc, uscc, USCC_ALPHABET, usccCheckChar, usccProblem } from './uscc';

/**
 * Codes of well-known companies as published in their business licences / public registries. Each was
 * checked by hand with the GB 32100 rule (Σ = Σ value × weight over positions 1–17; check = 31 − Σ mod 31):
 *
 *   914403001922038216  华为技术有限公司                  Σ = 831  ≡ 25 → 6  → '6'
 *   91440300708461136T  腾讯科技（深圳）有限公司          Σ = 966  ≡ 5  → 26 → 'T'
 *   91330100716105852F  阿里巴巴（中国）网络技术有限公司  Σ = 884  ≡ 16 → 15 → 'F'
 *   9144030010001686XA  招商银行股份有限公司              Σ = 1478 ≡ 21 → 10 → 'A'
 *   91110000802100433B  北京百度网讯科技有限公司          Σ = 485  ≡ 20 → 11 → 'B'
 *   91110108551385082Q  小米科技有限责任公司              Σ = 999  ≡ 7  → 24 → 'Q'
 *   91440300100012316L  中国平安保险（集团）股份有限公司  Σ = 538  ≡ 11 → 20 → 'L'
 *
 * As a second, independent check, positions 9–17 of each is a valid GB 11714 organisation code (its own
 * mod-11 check digit, see `orgCodeCheck`), which a mistyped or invented code would rarely also satisfy.
 */
const REAL_CODES = [
  ['914403001922038216', '华为技术有限公司'],
  ['91440300708461136T', '腾讯科技（深圳）有限公司'],
  ['91330100716105852F', '阿里巴巴（中国）网络技术有限公司'],
  ['9144030010001686XA', '招商银行股份有限公司'],
  ['91110000802100433B', '北京百度网讯科技有限公司'],
  ['91110108551385082Q', '小米科技有限责任公司'],
  ['91440300100012316L', '中国平安保险（集团）股份有限公司'],
] as const;

/**
 * Valid by both checksums but whose holder was not confirmed: 91350100M000100Y43 is the sample code
 * quoted in GB 32100 explanations (Σ = 1640 ≡ 28 → 3), 91110000100006485K came with the brief
 * (Σ = 632 ≡ 12 → 19 → 'K').
 */
const OTHER_VALID = ['91350100M000100Y43', '91110000100006485K'];

/** GB 11714 organisation code check digit over 8 characters (0-9 = 0..9, A-Z = 10..35). */
function orgCodeCheck(body8: string): string {
  const weights = [3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body8].reduce((s, ch, i) => s + parseInt(ch, 36) * (weights[i] ?? 0), 0);
  const c = 11 - (sum % 11);
  return c === 10 ? 'X' : c === 11 ? '0' : String(c);
}

const SEGMENT = fc.constantFrom(...USCC_ALPHABET);
const DIGIT = fc.constantFrom(...'0123456789');
/** 17-character bodies with the structure of GB 32100: 2 alphabet chars, 6 digits, 9 alphabet chars. */
const body17 = fc
  .tuple(
    fc.array(SEGMENT, { minLength: 2, maxLength: 2 }),
    fc.array(DIGIT, { minLength: 6, maxLength: 6 }),
    fc.array(SEGMENT, { minLength: 9, maxLength: 9 }),
  )
  .map(([a, b, c]) => [...a, ...b, ...c].join(''));

describe('unified social credit code (GB 32100-2015)', () => {
  it.each(REAL_CODES)('accepts %s (%s)', (code) => {
    expect(isValidUscc(code)).toBe(true);
    expect(usccProblem(code)).toBeNull();
    expect(usccCheckChar(code.slice(0, 17))).toBe(code[17]);
    expect(orgCodeCheck(code.slice(8, 16))).toBe(code[16]);
  });

  it.each(OTHER_VALID)('accepts %s', (code) => {
    expect(isValidUscc(code)).toBe(true);
    expect(orgCodeCheck(code.slice(8, 16))).toBe(code[16]);
  });

  // 91110000MA00123410 is generated with usccCheckChar, not a real code: Σ = 992 ≡ 0, so 31 is written 0.
  it('maps a check value of 31 to 0', () => {
    expect(usccCheckChar('91110000MA0012341')).toBe('0');
    expect(isValidUscc('91110000MA00123410')).toBe(true);
  });

  it.each([
    ['914403001922038217', '统一社会信用代码校验位不正确'],
    ['91440300708461136U', '统一社会信用代码校验位不正确'],
    ['91330100716105825F', '统一社会信用代码校验位不正确'], // two digits swapped
    ['91440300708461136t', '统一社会信用代码含有非法字符'], // lower case: only the schema upper-cases
    ['91440300708461136', '统一社会信用代码应为18位'],
    ['914403007084611360T', '统一社会信用代码应为18位'],
    ['', '统一社会信用代码应为18位'],
    [' 91440300708461136T', '统一社会信用代码应为18位'],
    ['91440300I08461136T', '统一社会信用代码含有非法字符'],
    ['91440300O08461136T', '统一社会信用代码含有非法字符'],
    ['91440300Z08461136T', '统一社会信用代码含有非法字符'],
    ['91440300S08461136T', '统一社会信用代码含有非法字符'],
    ['91440300V08461136T', '统一社会信用代码含有非法字符'],
    ['9144030070846113-T', '统一社会信用代码含有非法字符'],
    ['9144A300708461136T', '统一社会信用代码含有非法字符'], // positions 3–8 are a division code
    ['９1440300708461136T', '统一社会信用代码含有非法字符'], // full-width digit
  ])('refuses %s: %s', (code, message) => {
    expect(isValidUscc(code)).toBe(false);
    expect(usccProblem(code)).toBe(message);
  });

  it('refuses bad bodies in usccCheckChar', () => {
    expect(() => usccCheckChar('9144030070846113')).toThrow(RangeError);
    expect(() => usccCheckChar('91440300I08461136')).toThrow(RangeError);
  });

  it('schema trims, upper-cases and names the field', () => {
    const schema = uscc();
    expect(schema.parse(' 91440300708461136t ')).toBe('91440300708461136T');
    expect(schema.parse('9144030010001686xa')).toBe('9144030010001686XA');
    const msg = (input: unknown, s = schema) => s.safeParse(input).error?.issues.map((i) => i.message);
    expect(msg('91440300708461136U')).toEqual(['统一社会信用代码校验位不正确']);
    expect(msg('9144030070846113')).toEqual(['统一社会信用代码应为18位']);
    expect(msg('91440300708461136i')).toEqual(['统一社会信用代码含有非法字符']);
    expect(msg('  ')).toEqual(['统一社会信用代码不能为空']);
    expect(msg(undefined)).toEqual(['统一社会信用代码不能为空']);
    expect(msg(9144030019)).toEqual(['统一社会信用代码格式不正确']);
    expect(msg('91440300708461136U', uscc('买方信用代码'))).toEqual(['买方信用代码校验位不正确']);
  });

  it('body + usccCheckChar(body) is valid and every single-character change breaks it (property)', () => {
    fc.assert(
      fc.property(body17, fc.nat(17), SEGMENT, (body, at, replacement) => {
        const code = body + usccCheckChar(body);
        expect(isValidUscc(code)).toBe(true);
        fc.pre(code[at] !== replacement);
        const changed = code.slice(0, at) + replacement + code.slice(at + 1);
        expect(isValidUscc(changed)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('every single-character change of a valid code is refused (exhaustive for one random code, property)', () => {
    fc.assert(
      fc.property(body17, (body) => {
        const code = body + usccCheckChar(body);
        for (let at = 0; at < code.length; at++) {
          for (const ch of USCC_ALPHABET + 'IOZSVa') {
            if (ch === code[at]) continue;
            expect(isValidUscc(code.slice(0, at) + ch + code.slice(at + 1))).toBe(false);
          }
        }
      }),
      { numRuns: 50 },
    );
  });
});
