import { describe, expect, it, vi } from 'vitest';

const update = vi.fn();
vi.mock('../request/http', () => ({ update: (...args: unknown[]) => update(...args) }));

const { updateThen } = await import('./update-then');

describe('updateThen', () => {
  it('runs `after` only when the update answers ok', async () => {
    const after = vi.fn();
    update.mockResolvedValueOnce({ confirmed: true, ok: true, data: undefined, msg: '' });
    expect(await updateThen('/p', { a: 1 }, { confirm: '确定吗？' }, after)).toBe(true);
    expect(update).toHaveBeenCalledWith('/p', { a: 1 }, { confirm: '确定吗？' });
    expect(after).toHaveBeenCalledTimes(1);

    update.mockResolvedValueOnce({ confirmed: false, ok: false, data: undefined });
    expect(await updateThen('/p', undefined, {}, after)).toBe(false);
    update.mockRejectedValueOnce(new Error('network'));
    expect(await updateThen('/p', undefined, {}, after)).toBe(false);
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('needs no `after`: the lists refresh through the update itself', async () => {
    update.mockResolvedValueOnce({ confirmed: true, ok: true, data: undefined, msg: '' });
    expect(await updateThen('/p', undefined, {})).toBe(true);
    update.mockResolvedValueOnce({ confirmed: true, ok: false, data: undefined, msg: '' });
    expect(await updateThen('/p', undefined, {})).toBe(false);
  });
});
