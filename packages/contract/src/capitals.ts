import Decimal from 'decimal.js';

/**
 * Amounts in Chinese capital numerals (大写金额) as printed on contracts and bills, following the
 * writing rules Chinese banks apply (《支付结算办法》附件《正确填写票据和结算凭证的基本规定》):
 *
 * - a run of zeros inside the integer part is written as one 零 (1004 → 壹仟零肆), zeros at the end
 *   of a 4-digit section are not written (1010 → 壹仟零壹拾, 100000000 → 壹亿, 107000 → 壹拾万柒仟, the
 *   first of the two spellings the rules allow), zeros at the start of a section or a whole empty section
 *   are (100010 → 壹拾万零壹拾, 100007000 → 壹亿零柒仟);
 * - a leading ten is written 壹拾 (10 → 壹拾元, 100010 → 壹拾万零壹拾元);
 * - when the 元 digit is 0 and there is a 角, or there is a 分 but no 角, 元 is followed by 零
 *   (100.10 → 壹佰元零壹角, 10.05 → 壹拾元零伍分);
 * - 整 closes an amount without 角 and 分 (1005 → 壹仟零伍元整); an amount with 角 but no 分 ends on
 *   角 (1004.50 → 壹仟零肆元伍角);
 * - less than one yuan has no 元 part (0.05 → 伍分, 0.50 → 伍角); zero is 零元整;
 * - sections are 万 and 亿, and a 万 above 亿 reads 万亿 when the 亿 section is empty
 *   (10^12 → 壹万亿元整, 1000100000000 → 壹万零壹亿元整), up to 16 integer digits (NUMERIC(18,2)).
 */

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const UNITS = ['', '拾', '佰', '仟'] as const;
export const MAX_CAPITAL_INTEGER_DIGITS = 16;

/** Plain decimal notation, optionally with an exponent; decimal.js would also take hex, NaN, Infinity. */
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function toDecimal(amount: string | Decimal): Decimal {
  if (Decimal.isDecimal(amount)) {
    if (!amount.isFinite()) throw new TypeError(`金额不是有效数字：${amount.toString()}`);
    return amount;
  }
  if (typeof amount !== 'string' || !NUMERIC.test(amount.trim())) {
    throw new TypeError(`金额不是有效数字：${String(amount)}`);
  }
  return new Decimal(amount.trim());
}

/** The integer part (no leading zeros, not "0") in capitals, without 元. */
function integerCapitals(digits: string): string {
  let out = '';
  let zeroPending = false;
  let sectionHasDigit = false;
  let aboveYiHasDigit = false;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(i) - 48;
    const pos = digits.length - 1 - i;
    if (d === 0) {
      if (out !== '') zeroPending = true;
    } else {
      if (zeroPending) out += '零';
      zeroPending = false;
      out += DIGITS.charAt(d) + UNITS[pos % 4];
      sectionHasDigit = true;
    }
    if (pos % 4 === 0 && pos > 0) {
      if (pos === 8) {
        // 亿 closes everything above it: 壹万亿 when only the 万亿 section has digits.
        if (sectionHasDigit || aboveYiHasDigit) out += '亿';
      } else if (sectionHasDigit) {
        out += '万';
        if (pos === 12) aboveYiHasDigit = true;
      }
      // Zeros closing a written section are not read (107000 → 壹拾万柒仟); an empty section is (一亿零七千).
      if (sectionHasDigit) zeroPending = false;
      sectionHasDigit = false;
    }
  }
  return out;
}

/**
 * `amount` in Chinese capitals (大写金额), rounded half-up to the cent; negative amounts start with 负.
 * Throws a TypeError for input that is not a decimal number, a RangeError above 16 integer digits.
 */
export function toChineseCapitals(amount: string | Decimal): string {
  const fixed = toDecimal(amount).toFixed(2, Decimal.ROUND_HALF_UP);
  const negative = fixed.startsWith('-');
  const [intPart, frac] = (negative ? fixed.slice(1) : fixed).split('.') as [string, string];
  if (intPart.length > MAX_CAPITAL_INTEGER_DIGITS) {
    throw new RangeError(`金额超出${MAX_CAPITAL_INTEGER_DIGITS}位整数：${fixed}`);
  }
  const jiao = frac.charCodeAt(0) - 48;
  const fen = frac.charCodeAt(1) - 48;
  const hasYuan = intPart !== '0';
  if (!hasYuan && jiao === 0 && fen === 0) return '零元整';

  let out = negative ? '负' : '';
  if (hasYuan) out += integerCapitals(intPart) + '元';
  if (jiao === 0 && fen === 0) return out + '整';
  if (jiao !== 0) {
    if (hasYuan && intPart.endsWith('0')) out += '零';
    out += DIGITS.charAt(jiao) + '角';
  } else if (hasYuan) {
    out += '零';
  }
  if (fen !== 0) out += DIGITS.charAt(fen) + '分';
  return out;
}
