import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODULE_MAP_PATH, renderModuleMap } from '../../../scripts/module-map';

/** docs/module-map.md is generated from the code; a module, table or tie added since fails here. */
describe('docs/module-map.md', () => {
  it('matches the code (regenerate with `npx tsx scripts/module-map.ts`)', async () => {
    expect(readFileSync(MODULE_MAP_PATH, 'utf8')).toBe(await renderModuleMap());
  });
});
