import { describe, expect, it } from 'vitest';
import { hasForbiddenChars, normalizeSerial, optionalText, serialNo, text } from './fields';

/** Characters that show nothing (SECURITY.md "Input"), one of each kind the rule names. */
const INVISIBLE: [string, string][] = [
  ['line separator U+2028', '\u2028'],
  ['paragraph separator U+2029', '\u2029'],
  ['tag letter A U+E0041', '\u{E0041}'],
  ['cancel tag U+E007F', '\u{E007F}'],
  ['Hangul filler U+3164', '\u3164'],
  ['Hangul choseong filler U+115F', '\u115F'],
  ['Hangul jungseong filler U+1160', '\u1160'],
  ['half-width Hangul filler U+FFA0', '\uFFA0'],
  ['blank Braille pattern U+2800', '\u2800'],
  ['variation selector U+FE0F', '\uFE0F'],
  ['interlinear annotation anchor U+FFF9', '\uFFF9'],
  ['zero-width space U+200B', '\u200B'],
  ['right-to-left override U+202E', '\u202E'],
  ['next line U+0085', '\u0085'],
  ['NUL', '\u0000'],
];

describe('invisible characters, by Unicode property', () => {
  it.each(INVISIBLE)('refuses a %s in a name and in a multi-line remark, naming the field', (_, ch) => {
    expect(text('客户名称').safeParse(`甲${ch}公司`).error?.issues[0]?.message).toBe(
      '客户名称不能包含控制字符、换行或不可见字符',
    );
    expect(
      optionalText('备注', 500, { multiline: true }).safeParse(`第一行${ch}第二行`).error?.issues[0]?.message,
    ).toBe('备注不能包含控制字符、换行或不可见字符');
  });

  it('allows tab and line breaks only in multi-line text, and ordinary text everywhere', () => {
    expect(hasForbiddenChars('第一行\r\n第二行\t完', true)).toBe(false);
    expect(hasForbiddenChars('第一行\n第二行')).toBe(true);
    expect(hasForbiddenChars('Ａ公司 (2026) 😀 한국어 é')).toBe(false);
  });

  it.each(INVISIBLE.filter(([, ch]) => !/\p{Cc}/u.test(ch)))(
    'reads a serial with a %s as the same serial',
    (_, ch) => {
      expect(normalizeSerial(`dup${ch}613962`)).toBe('DUP613962');
      expect(serialNo('银行流水号').parse(`DUP${ch}613962`)).toBe('DUP613962');
    },
  );

  it('still refuses a control character inside a serial', () => {
    expect(serialNo('银行流水号').safeParse('DUP\u0085613962').error?.issues[0]?.message).toBe(
      '银行流水号不能包含控制字符、换行或不可见字符',
    );
  });
});
