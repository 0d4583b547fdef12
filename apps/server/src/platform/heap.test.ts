import { describe, expect, it } from 'vitest';
import { heapGrowingFlag, HEAP_GROWING_PERCENT } from './heap';

describe('heap growth bound for a served PGlite', () => {
  it('asks V8 to collect the old generation at the bounded growth by default', () => {
    expect(heapGrowingFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowingFlag(['--enable-source-maps', '--max-old-space-size=2048'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it("leaves an operator's own growth setting alone, in either spelling", () => {
    expect(heapGrowingFlag(['--heap-growing-percent=80'])).toBeUndefined();
    expect(heapGrowingFlag(['--heap_growing_percent', '50'])).toBeUndefined();
  });
});
