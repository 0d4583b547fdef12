import { describe, expect, it } from 'vitest';
import { unstorableMessage, unstorablePath } from './validation';

describe('unstorablePath', () => {
  it('finds nothing in a clean body', () => {
    expect(
      unstorablePath({ pageNum: 1, state: 'approved', rows: [{ name: '张三' }], none: null }),
    ).toBeUndefined();
  });

  it('names the path of a value or a key holding NUL or a lone surrogate', () => {
    expect(unstorablePath('a\u0000b')).toEqual([]);
    expect(unstorablePath({ a: { b: ['ok', 'x\uD800'] } })).toEqual(['a', 'b', '1']);
    expect(unstorablePath({ a: { ['k\uDC00']: 1 } })).toEqual(['a', 'k\uDC00']);
    expect(unstorableMessage(['a', 'k\uDC00'])).toBe('字段 a.k? 包含不允许的字符');
    expect(unstorableMessage([])).toBe('请求参数包含不允许的字符');
  });
});
