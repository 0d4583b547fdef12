import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The walls between business areas are the lint rule `portal/module-boundaries` with the ties
 * declared in eslint.config.js (docs/module-map.md). These run the repository's own lint
 * configuration on deliberate breaches, so a rule that stopped applying would fail here; the
 * whole tree is held to it by `npm run lint`.
 */
const repo = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: repo });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(repo, file) });
  return result!.messages.filter((m) => m.ruleId === 'portal/module-boundaries').map((m) => m.message);
}

// Loading the lint configuration (typescript-eslint) takes seconds on a busy machine.
describe('module boundaries', { timeout: 120_000 }, () => {
  it('refuse a server module reading another module’s tables without a declared tie', async () => {
    const errors = await boundaryErrors(
      'apps/server/src/modules/ruler/probe.ts',
      "import { contracts } from '../contract/schema';\nexport const probe = contracts;\n",
    );
    expect(errors).toEqual([expect.stringContaining('modules/ruler reads the tables of modules/contract')]);
  });

  it('let a declared read and a call of another module’s functions through', async () => {
    const declared = await boundaryErrors(
      'apps/server/src/modules/loan/probe.ts',
      "import { contracts } from '../contract/schema';\nexport const probe = contracts;\n",
    );
    const call = await boundaryErrors(
      'apps/server/src/modules/ruler/probe.ts',
      "import { COMPANY_USAGE } from '../company';\nexport const probe = COMPANY_USAGE;\n",
    );
    expect([...declared, ...call]).toEqual([]);
  });

  it('refuse a server module importing another module’s files past its index.ts', async () => {
    const errors = await boundaryErrors(
      'apps/server/src/modules/ruler/probe.ts',
      "import { COMPANY_USAGE } from '../company/service';\nexport const probe = COMPANY_USAGE;\n",
    );
    expect(errors).toEqual([expect.stringContaining('modules/ruler imports a file of modules/company')]);
  });

  it('refuse a web feature importing from another feature', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/features/loan/probe.ts',
      "import * as contract from '../contract/api';\nexport const probe = contract;\n",
    );
    expect(errors).toEqual([expect.stringContaining('features/loan imports from features/contract')]);
  });
});
