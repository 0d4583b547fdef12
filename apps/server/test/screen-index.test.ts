import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderScreenIndex, SCREEN_INDEX_PATH } from '../../../scripts/screen-index';
import { createTestPortal, type TestPortal } from '../src/testing/harness';

/** docs/screen-index.md is generated from the menu catalogue, the web's screens and the route table. */
let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal();
});
afterAll(() => t.close());

describe('docs/screen-index.md', () => {
  it('matches the code (regenerate with `npx tsx scripts/screen-index.ts`)', async () => {
    expect(readFileSync(SCREEN_INDEX_PATH, 'utf8')).toBe(await renderScreenIndex(t.portal.routes));
  });
});
