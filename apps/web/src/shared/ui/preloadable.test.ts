import { describe, expect, it, vi } from 'vitest';
import { preloadable } from './preloadable';

const Component = () => null;

describe('preloadable', () => {
  it('loads the chunk once, whether preloaded or rendered first', async () => {
    const load = vi.fn(() => Promise.resolve({ default: Component }));
    const lazyComponent = preloadable(load);
    expect(load).not.toHaveBeenCalled();
    await lazyComponent.preload();
    await lazyComponent.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load, so the next attempt fetches again', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Component }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ default: Component });
    const lazyComponent = preloadable(load);
    await expect(lazyComponent.preload()).rejects.toThrow('offline');
    await expect(lazyComponent.preload()).resolves.toEqual({ default: Component });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
