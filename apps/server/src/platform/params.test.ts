import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import type { Executor } from './db/client';
import { LiveParams } from './params';

/** An executor whose reads answer when the test says, with the upload limit it is given. */
function heldReads() {
  const pending: ((uploadLimitMb: number) => void)[] = [];
  const ex = {
    execute: () =>
      new Promise((resolve) =>
        pending.push((uploadLimitMb) => resolve({ rows: [{ key: 'uploadLimitMb', value: uploadLimitMb }] })),
      ),
  } as unknown as Executor;
  return { ex, answer: (i: number, uploadLimitMb: number) => pending[i]!(uploadLimitMb) };
}

describe('LiveParams', () => {
  it('a load overtaken by a later one returns only after the later one applied', async () => {
    const config = loadConfig({});
    const params = new LiveParams(config);
    const { ex, answer } = heldReads();
    // A save's own load after its commit, then a change notice's load that answers later.
    let saved = false;
    const own = params.load(ex).then(() => (saved = true));
    const notice = params.load(ex);
    answer(0, 1);
    await new Promise((r) => setTimeout(r, 10));
    // Before the fix the save's load returned here, with the old limit still in force.
    expect(saved).toBe(false);
    answer(1, 1);
    await Promise.all([own, notice]);
    expect(config.uploadLimitBytes).toBe(1024 * 1024);
    expect(params.current.uploadLimitMb).toBe(1);
  });

  it('applies only what the latest load read', async () => {
    const config = loadConfig({});
    const params = new LiveParams(config);
    const { ex, answer } = heldReads();
    const first = params.load(ex);
    const second = params.load(ex);
    answer(1, 7);
    answer(0, 3);
    await Promise.all([first, second]);
    expect(params.current.uploadLimitMb).toBe(7);
  });
});
