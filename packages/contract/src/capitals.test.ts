import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toChineseCapitals } from './capitals';

const NONZERO = '壹贰叁肆伍陆柒捌玖';
const DIGIT_VALUE = new Map([...('零' + NONZERO)].map((ch, i) => [ch, BigInt(i)]));
const UNIT_VALUE = new Map([
  ['仟', 1000n],
  ['佰', 100n],
  ['拾', 10n],
]);

/** One 4-digit section ("壹仟零伍", "零壹拾"): digit-unit pairs with falling units, single 零 for gaps. */
function parseSection(text: string): bigint {
  let value = 0n;
  let lastUnit = 10_000n;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '零') {
      if (text[i + 1] === undefined || text[i + 1] === '零') throw new Error(`stray 零 in ${text}`);
      i++;
      continue;
    }
    const digit = DIGIT_VALUE.get(text[i] ?? '');
    if (digit === undefined || digit === 0n) throw new Error(`expected a digit in ${text} at ${i}`);
    const unit = UNIT_VALUE.get(text[i + 1] ?? '') ?? 1n;
    if (unit >= lastUnit) throw new Error(`units out of order in ${text}`);
    lastUnit = unit;
    value += digit * unit;
    i += unit === 1n ? 1 : 2;
  }
  return value;
}

/** Up to 8 digits: [section 万] [section]. */
function parseBelowYi(text: string): bigint {
  const parts = text.split('万');
  if (parts.length > 2) throw new Error(`two 万 in ${text}`);
  if (parts.length === 1) return parseSection(text);
  const [hi = '', lo = ''] = parts;
  if (hi === '') throw new Error(`万 without digits in ${text}`);
  return parseSection(hi) * 10_000n + parseSection(lo);
}

function parseInteger(text: string): bigint {
  const parts = text.split('亿');
  if (parts.length > 2) throw new Error(`two 亿 in ${text}`);
  if (parts.length === 1) return parseBelowYi(text);
  const [hi = '', lo = ''] = parts;
  if (hi === '') throw new Error(`亿 without digits in ${text}`);
  return parseBelowYi(hi) * 100_000_000n + parseBelowYi(lo);
}

/** Capitals back to integer cents; throws on anything the formatter should never write. */
function parseCapitals(text: string): bigint {
  if (text === '零元整') return 0n;
  const negative = text.startsWith('负');
  const body = negative ? text.slice(1) : text;
  const m = /^(?:([^元]+)元)?(整|零?(?:([壹贰叁肆伍陆柒捌玖])角)?(?:([壹贰叁肆伍陆柒捌玖])分)?)$/.exec(body);
  if (!m) throw new Error(`not an amount in capitals: ${text}`);
  const [, yuan, tail = '', jiao, fen] = m;
  if (yuan === undefined && (tail === '' || tail === '整' || tail.startsWith('零'))) {
    throw new Error(`bad amount below one yuan: ${text}`);
  }
  if (yuan !== undefined && tail === '') throw new Error(`元 must be followed by 整, 角 or 分: ${text}`);
  const cents =
    (yuan === undefined ? 0n : parseInteger(yuan) * 100n) +
    (jiao === undefined ? 0n : (DIGIT_VALUE.get(jiao) ?? 0n) * 10n) +
    (fen === undefined ? 0n : (DIGIT_VALUE.get(fen) ?? 0n));
  return negative ? -cents : cents;
}

const centsToString = (cents: bigint): string => {
  const sign = cents < 0n ? '-' : '';
  const s = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return `${sign}${s.slice(0, -2)}.${s.slice(-2)}`;
};

const MAX_CENTS = 999_999_999_999_999_999n; // 9999999999999999.99
/** Uniform-ish cents plus numbers full of zeros, where the 零 rules live. */
const cents = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX_CENTS }),
  fc
    .array(fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 5, 9), { minLength: 1, maxLength: 18 })
    .map((digits) => BigInt(digits.join(''))),
);

describe('toChineseCapitals (大写金额)', () => {
  it.each([
    // the cases of the brief
    ['0.00', '零元整'],
    ['10.05', '壹拾元零伍分'],
    ['100000000.00', '壹亿元整'],
    ['1004.50', '壹仟零肆元伍角'],
    ['0.05', '伍分'],
    ['0.50', '伍角'],
    ['100.10', '壹佰元零壹角'],
    ['1010.00', '壹仟零壹拾元整'],
    ['10000.00', '壹万元整'],
    ['100010.00', '壹拾万零壹拾元整'],
    ['1000000001.00', '壹拾亿零壹元整'],
    ['12345678.91', '壹仟贰佰叁拾肆万伍仟陆佰柒拾捌元玖角壹分'],
    ['1005', '壹仟零伍元整'],
    // the examples of 《正确填写票据和结算凭证的基本规定》
    ['1409.50', '壹仟肆佰零玖元伍角'],
    ['6007.14', '陆仟零柒元壹角肆分'],
    ['1680.32', '壹仟陆佰捌拾元零叁角贰分'],
    ['107000.53', '壹拾万柒仟元零伍角叁分'],
    ['16409.02', '壹万陆仟肆佰零玖元零贰分'],
    ['325.04', '叁佰贰拾伍元零肆分'],
    // leading ten, zeros across sections, 万亿
    ['10', '壹拾元整'],
    ['15', '壹拾伍元整'],
    ['110000', '壹拾壹万元整'],
    ['1.05', '壹元零伍分'],
    ['10.55', '壹拾元零伍角伍分'],
    ['0.55', '伍角伍分'],
    ['1000000010', '壹拾亿零壹拾元整'],
    ['100001000', '壹亿零壹仟元整'],
    ['100007000', '壹亿零柒仟元整'],
    ['105000', '壹拾万伍仟元整'],
    ['100500', '壹拾万零伍佰元整'],
    ['1050000000', '壹拾亿伍仟万元整'],
    ['1000050000000', '壹万亿零伍仟万元整'],
    ['1001050000000', '壹万零壹拾亿伍仟万元整'],
    ['1000000000000', '壹万亿元整'],
    ['1000000000001', '壹万亿零壹元整'],
    ['1000100000000', '壹万零壹亿元整'],
    ['1000000010000', '壹万亿零壹万元整'],
    ['20000000000000.00', '贰拾万亿元整'],
    ['1234567890123456.78', '壹仟贰佰叁拾肆万伍仟陆佰柒拾捌亿玖仟零壹拾贰万叁仟肆佰伍拾陆元柒角捌分'],
    ['9999999999999999.99', '玖仟玖佰玖拾玖万玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分'],
    // negatives and rounding half-up to the cent
    ['-1.50', '负壹元伍角'],
    ['-0.05', '负伍分'],
    ['-0.001', '零元整'],
    ['0.005', '壹分'],
    ['0.004', '零元整'],
    ['999.995', '壹仟元整'],
    ['-2.345', '负贰元叁角伍分'],
    [' 1e4 ', '壹万元整'],
  ])('%s -> %s', (amount, expected) => {
    expect(toChineseCapitals(amount)).toBe(expected);
  });

  it('takes a Decimal', () => {
    expect(toChineseCapitals(new Decimal('1004.5'))).toBe('壹仟零肆元伍角');
    expect(toChineseCapitals(new Decimal('0.125'))).toBe('壹角叁分');
  });

  it('throws on non-numeric input and beyond 16 integer digits', () => {
    for (const bad of ['', ' ', 'abc', '1,000.00', '0x10', 'NaN', 'Infinity', '1.2.3', '¥5']) {
      expect(() => toChineseCapitals(bad), bad).toThrow(TypeError);
    }
    expect(() => toChineseCapitals(new Decimal(NaN))).toThrow(TypeError);
    expect(() => toChineseCapitals(null as unknown as string)).toThrow(TypeError);
    expect(() => toChineseCapitals('10000000000000000')).toThrow(RangeError);
    expect(() => toChineseCapitals('9999999999999999.995')).toThrow(RangeError);
  });

  it('the test parser reads the fixed cases back', () => {
    expect(parseCapitals('壹拾万零壹拾元整')).toBe(10_001_000n);
    expect(parseCapitals('负伍分')).toBe(-5n);
    expect(() => parseCapitals('壹拾元零零伍分')).toThrow();
    expect(() => parseCapitals('零伍分')).toThrow();
  });

  it('writes only capital digits, units and 元角分整负 (property)', () => {
    fc.assert(
      fc.property(cents, fc.boolean(), (c, negative) => {
        expect(toChineseCapitals(centsToString(negative ? -c : c))).toMatch(
          /^负?[零壹贰叁肆伍陆柒捌玖拾佰仟万亿元角分整]+$/,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips through a parser for 0.00..9999999999999999.99 (property)', () => {
    fc.assert(
      fc.property(cents, fc.boolean(), (c, negative) => {
        const amount = negative ? -c : c;
        const text = toChineseCapitals(centsToString(amount));
        expect(parseCapitals(text)).toBe(amount);
        if (amount !== 0n) {
          // 零 only ever stands between two written digits or between 元 and 角/分.
          expect(text).not.toMatch(/零[零拾佰仟万亿元角分整]|^负?零|零$/);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
