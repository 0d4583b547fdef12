import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Audit rows are written by the command path (platform/db/command.ts, docs/architecture.md "The
 * command path"); the lint rule `audit/audit-writes` refuses `writeAudit` in any other server file
 * not listed in eslint/audit-writers.js. These run the repository's own lint configuration on a
 * planted breach, so a rule that stopped applying fails here, and hold the list to files that still
 * need it, so it only shrinks.
 */
const repo = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: repo });

async function auditErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(repo, file) });
  return result!.messages.filter((m) => m.ruleId === 'audit/audit-writes').map((m) => m.message);
}

const handWritten = [
  "import type { Tx } from '../../platform/db/client';",
  "import { writeAudit, type Actor } from '../../platform/db/audit';",
  'export async function probe(tx: Tx, actor: Actor) {',
  "  await writeAudit(tx, actor, { entity: 'bankAccount', entityCode: 'X', action: 'update' });",
  '}',
  '',
].join('\n');

// Loading the lint configuration (typescript-eslint) takes seconds on a busy machine.
describe('audit rows through the command path', { timeout: 120_000 }, () => {
  it('refuse a module writing its audit row by hand', async () => {
    expect(await auditErrors('apps/server/src/modules/bank/probe.ts', handWritten)).toEqual([
      expect.stringContaining('modules/bank/probe.ts writes its audit row by hand'),
    ]);
    // The batch form too (the command path writes a transaction's rows in one statement with it).
    const batch = handWritten.replace('writeAudit, type Actor', 'writeAudits, type Actor');
    expect(await auditErrors('apps/server/src/modules/bank/probe.ts', batch)).toEqual([
      expect.stringContaining('modules/bank/probe.ts writes its audit row by hand'),
    ]);
  });

  it('let the command path, a listed file and the type alone through', async () => {
    const typeOnly = await auditErrors(
      'apps/server/src/modules/bank/probe.ts',
      "import type { Actor } from '../../platform/db/audit';\nexport type Probe = Actor;\n",
    );
    const listed = await auditErrors('apps/server/src/platform/http/app.ts', handWritten);
    const test = await auditErrors('apps/server/src/modules/bank/probe.test.ts', handWritten);
    expect([...typeOnly, ...listed, ...test]).toEqual([]);
  });

  it('list only files that still write audit rows by hand', async () => {
    const { AUDIT_WRITERS } = (await import(resolve(repo, 'eslint/audit-writers.js'))) as {
      AUDIT_WRITERS: Record<string, string>;
    };
    const stale = Object.keys(AUDIT_WRITERS).filter(
      (f) => !/\bwriteAudits?\(/.test(readFileSync(resolve(repo, 'apps/server/src', f), 'utf8')),
    );
    expect(stale).toEqual([]);
  });
});
