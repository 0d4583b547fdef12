import { readFileSync } from 'node:fs';
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

  it('refuse a server module writing another module’s table, even where it may read it', async () => {
    const errors = await boundaryErrors(
      'apps/server/src/modules/loan/probe.ts',
      [
        "import { sql } from 'drizzle-orm';",
        "import type { Tx } from '../../platform/db/client';",
        "import { contractDues, contracts } from '../contract/schema';",
        "import * as plan from '../contract/schema';",
        'export async function probe(tx: Tx) {',
        "  await tx.update(contracts).set({ loanState: 'loaned' });",
        '  await tx.insert(contractDues).values([]);',
        '  await tx.delete(plan.contractPlanItems);',
        '  await tx.execute(sql`update contract_plan_items set superseded_by = null where contract_id = ${1}`);',
        '  await tx.execute(sql`delete from ${contracts} where id = ${1}`);',
        '}',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('modules/loan writes contracts, a table of modules/contract'),
      expect.stringContaining('modules/loan writes contractDues, a table of modules/contract'),
      expect.stringContaining('modules/loan writes plan.contractPlanItems, a table of modules/contract'),
      expect.stringContaining('modules/loan writes contract_plan_items, a table of modules/contract'),
      expect.stringContaining('modules/loan writes contracts, a table of modules/contract'),
    ]);
  });

  it('refuse a write of another module’s table in SQL text without any import', async () => {
    const errors = await boundaryErrors(
      'apps/server/src/modules/crm-change/probe.ts',
      [
        "import { sql } from 'drizzle-orm';",
        "import type { Db } from '../../platform/db/client';",
        'export async function probe(db: Db) {',
        '  await db.execute(sql`insert into comp_users (user_code) values (${"U1"}) on conflict do nothing`);',
        '}',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('modules/crm-change writes comp_users, a table of modules/crm'),
    ]);
  });

  it('let a module read and lock another’s tables where declared, and write its own', async () => {
    const reads = await boundaryErrors(
      'apps/server/src/modules/loan/probe.ts',
      [
        "import { eq, sql } from 'drizzle-orm';",
        "import type { Tx } from '../../platform/db/client';",
        "import { contracts } from '../contract/schema';",
        "import { loans } from './schema';",
        'export async function probe(tx: Tx) {',
        "  await tx.select().from(contracts).where(eq(contracts.id, 1)).for('update');",
        '  await tx.execute(sql`select id from contract_plan_items where contract_id = ${1} for update`);',
        '  await tx.update(loans).set({ rebased: true });',
        '  await tx.execute(sql`update loans set rebased = true`);',
        '}',
        '',
      ].join('\n'),
    );
    const owner = await boundaryErrors(
      'apps/server/src/modules/contract/probe.ts',
      [
        "import type { Tx } from '../../platform/db/client';",
        "import { contracts } from './schema';",
        'export async function probe(tx: Tx) {',
        "  await tx.update(contracts).set({ loanState: 'none' });",
        '}',
        '',
      ].join('\n'),
    );
    expect([...reads, ...owner]).toEqual([]);
  });

  it('refuse a read of another module’s table in SQL text where no read is declared', async () => {
    const errors = await boundaryErrors(
      'apps/server/src/modules/ruler/probe.ts',
      [
        "import { sql } from 'drizzle-orm';",
        "import type { Db } from '../../platform/db/client';",
        'export async function probe(db: Db) {',
        '  await db.execute(sql`select r.id from interest_rules r join contracts c on c.rule_code = r.biz_code`);',
        '  await db.execute(sql`select 1 from ${sql.raw(\'paid_lines\')} where exists (select 1 from "public".paids)`);',
        '}',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('modules/ruler reads contracts, a table of modules/contract, in SQL text'),
      expect.stringContaining('modules/ruler reads paids, a table of modules/paid, in SQL text'),
    ]);
  });

  it('let a declared read in SQL text through, and words that name no table', async () => {
    const errors = await boundaryErrors(
      'apps/server/src/modules/ledger/probe.ts',
      [
        "import { sql } from 'drizzle-orm';",
        "import type { Db } from '../../platform/db/client';",
        'export async function probe(db: Db) {',
        '  await db.execute(sql`select extract(day from now()) from contracts c join paid_lines l on true`);',
        "  return 'imported from contracts elsewhere';",
        '}',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('refuse a declared read that no file of the module makes any more, on its routes.ts', async () => {
    const stale = new ESLint({
      cwd: repo,
      overrideConfig: {
        files: ['apps/server/src/modules/**'],
        rules: {
          'portal/module-boundaries': [
            'error',
            {
              schemaReads: { ruler: ['contract'] },
              tables: { contracts: 'contract', interest_rules: 'ruler' },
            },
          ],
        },
      },
    });
    const lint = async (module: string, code: string) => {
      const file = resolve(repo, `apps/server/src/modules/${module}/routes.ts`);
      const [result] = await stale.lintText(code, { filePath: file });
      return result!.messages.filter((m) => m.ruleId === 'portal/module-boundaries').map((m) => m.message);
    };
    const routes = readFileSync(resolve(repo, 'apps/server/src/modules/ruler/routes.ts'), 'utf8');
    expect(await lint('ruler', routes)).toEqual([
      expect.stringContaining(
        'eslint/schema-reads.js declares that modules/ruler reads the tables of modules/contract, but no file',
      ),
    ]);
    // The same declaration is used once routes.ts (the text being linted) reads the table.
    expect(await lint('ruler', `${routes}\nexport const probe = 'select id from contracts';\n`)).toEqual([]);
    // The repository's own declarations are all in use (a module reading through another file).
    expect(
      await boundaryErrors(
        'apps/server/src/modules/ledger/routes.ts',
        readFileSync(resolve(repo, 'apps/server/src/modules/ledger/routes.ts'), 'utf8'),
      ),
    ).toEqual([]);
  });

  it('refuse a web feature importing from another feature', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/features/loan/probe.ts',
      "import * as contract from '../contract/api';\nexport const probe = contract;\n",
    );
    expect(errors).toEqual([expect.stringContaining('features/loan imports from features/contract')]);
  });
});
