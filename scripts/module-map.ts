/**
 * Writes docs/module-map.md from the code: every server module with what it is for, the tables it
 * owns (its schema.ts), the tables of other modules it reads directly (in drizzle or in SQL text, as
 * the lint rule finds them; declared in eslint/schema-reads.js), and the functions other modules
 * may call (its index.ts); every web feature with the server module it speaks to. apps/server/test/module-map.test.ts fails when the page and the code part.
 *
 *   npx tsx scripts/module-map.ts
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';

/** What each server module is for, in one line. A new module needs its line here. */
export const PURPOSE: Record<string, string> = {
  assignment:
    'notices of assignment (应收账款转让通知书) of disclosed contracts: each debtor’s 确认 or a checker’s 豁免, required before 放款',
  auth: 'sign-in with the envelope key, captcha and the login limits; the session’s user, menus and buttons',
  bank: 'our and the customers’ bank accounts',
  bizdate: 'the business date (营业日) and the day-end run',
  buyback:
    'buy-back under recourse (回购): the 回购单 closing a contract into the seller’s receivable, 回购款核销',
  baddebt: 'bad-debt write-off (核销坏账): a 损失 contract closed against its 坏账准备, four eyes',
  classification: 'five-category asset classification (五级分类): the day-end proposal and the 分类调整单',
  collections:
    'collections (逾期催收): the overdue worklist, 催收记录 and promises to pay, the day-end’s reminders',
  company: 'enterprise customers (企业), their export',
  admission: '客户准入: the KYC document that admits a customer to credits and contracts, approved by risk',
  debtor:
    'debtors (债务人) as customers: the picker, 待匹配 names to link, debtor lines across sellers, concentration',
  contract: 'factoring contracts, their plans, changes, handover and imports',
  credit: 'credit lines (授信), distribution, raises and the credit ledger',
  'crm-change': 'information and administrator changes of an enterprise, approved',
  crm: 'enterprise users, roles, departments, relations and bank operators',
  dashboard: 'the 工作 dashboard’s portfolio figures, aging and trend',
  files: 'uploads and downloads (local disk or S3), tokens that follow their document',
  geo: 'the administrative divisions (省市区) for region pickers',
  income: 'incoming payments (来款) and bank statement imports',
  jobs: 'the scheduler and its 定时任务 screen: cron schedules, one run per time across servers, run history, failures told to administrators',
  ledger: 'the portfolio ledger (保理业务台账) as of a date and the customer statement (客户对账单)',
  loan: 'disbursements (放款单) of approved contracts and their reversals (放款单冲红)',
  messages: 'the message centre (消息中心): to-dos, rejections, circulations and reminders per user',
  monitor: 'operation log, login log and online sessions (系统监控)',
  notices:
    'announcements (通知公告) with a publish window, shown on the 工作 dashboard to the organisations chosen',
  paid: 'write-offs (核销) of incoming payments against plans, red reversal, reconciliation',
  permission: 'organisations, staff and roles with their menu and button codes',
  permit: 'admission (准入) of enterprises and their role changes',
  prepayment: 'prepayments (预收) received before disbursement',
  print: 'print templates and printing (HTML preview, PDF)',
  regulator: 'the monthly figures for the regulator (监管报表), summed from the ledger',
  ruler: 'interest rules (计息规则) and plan previews',
  system: 'settings an administrator changes at run time (参数设置)',
  voucher:
    'accounting vouchers (会计凭证) of the approved money events, the account mapping and the trial balance',
  workflow: 'the approval of every document: processes, to-dos, records, circulation',
};

const repo = resolve(import.meta.dirname, '..');
const modulesDir = join(repo, 'apps/server/src/modules');
const featuresDir = join(repo, 'apps/web/src/features');

const dirs = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

export function tablesOf(module: string): string[] {
  const schema = join(modulesDir, module, 'schema.ts');
  if (!existsSync(schema)) return [];
  return [...readFileSync(schema, 'utf8').matchAll(/pgTable\(\s*'([a-z0-9_]+)'/g)].map((m) => m[1]!).sort();
}

/**
 * What a module offers the others: the values its `index.ts` re-exports, by file (other modules
 * import only from there: eslint/boundaries.js). Types are left out.
 */
function publicSurface(module: string): Map<string, Set<string>> {
  const byFile = new Map<string, Set<string>>();
  const index = join(modulesDir, module, 'index.ts');
  if (!existsSync(index)) return byFile;
  const text = readFileSync(index, 'utf8');
  for (const [, typeOnly, what, path] of text.matchAll(
    /export\s+(type\s+)?\{([^}]*)\}\s+from\s+'\.\/([^']+)'/g,
  )) {
    if (typeOnly) continue;
    const names = what!
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith('type '))
      .map((n) => n.split(/\s+as\s+/)[0]!);
    const set = byFile.get(path!) ?? new Set<string>();
    names.forEach((n) => set.add(n));
    if (set.size > 0) byFile.set(path!, set);
  }
  return byFile;
}

type Reads = Map<string, Map<string, Set<string>>>;

/**
 * The direct table reads of each module, as the lint rule finds them (eslint/module-reads.js:
 * drizzle tables imported from another module's schema.ts, and `from`/`join` in SQL text):
 * module → owner → tables. The rule holds them equal to eslint/schema-reads.js.
 */
async function tableReads(modules: readonly string[]): Promise<Map<string, Reads>> {
  const load = (file: string) => import(pathToFileURL(join(repo, 'eslint', file)).href);
  const { moduleReads } = (await load('module-reads.js')) as {
    moduleReads: (module: string, tables: Record<string, string>) => Reads;
  };
  const { TABLE_OWNERS } = (await load('table-owners.js')) as { TABLE_OWNERS: Record<string, string> };
  return new Map(modules.map((m) => [m, moduleReads(m, TABLE_OWNERS)]));
}

/** The server module a web feature speaks to: the same name, or none. */
function featureModule(feature: string, modules: string[]): string {
  return modules.includes(feature) ? `\`${feature}\`` : '–';
}

export async function renderModuleMap(): Promise<string> {
  const modules = dirs(modulesDir);
  const reads = await tableReads(modules);
  const out: string[] = [
    '# Module map',
    '',
    '<!-- Generated by `npx tsx scripts/module-map.ts` from the code; module-map.test.ts keeps it true. -->',
    '',
    'The server is one folder per business area under `apps/server/src/modules/`, on top of',
    '`platform/` (HTTP, envelope, sessions, database, audit) and `packages/contract` (paths, schemas,',
    'money and plan arithmetic shared with the web). A module owns its tables and alone writes them:',
    'another module calls the functions of its `index.ts` (its public surface), or reads its tables',
    'only where `eslint/schema-reads.js` declares it, in drizzle or in SQL text (all checked by the',
    'lint rule in `eslint/boundaries.js`, which also refuses a declaration no file uses). Module code',
    'depends on other modules without a cycle (`apps/server/test/module-cycles.test.ts`), and each',
    'module registers the row-scope kinds of its tables with its plugin (`scope-kinds.ts`).',
    'Each module is a Fastify plugin of its own under `/api`',
    '(docs/architecture.md "Modules"). The web is one folder per feature under',
    '`apps/web/src/features/`, on top of `shared/`; no feature imports another.',
    '',
    '## Server modules',
    '',
  ];
  for (const module of modules) {
    const purpose = PURPOSE[module];
    if (!purpose) throw new Error(`modules/${module} has no line in scripts/module-map.ts PURPOSE`);
    out.push(`### ${module}`, '', purpose.charAt(0).toUpperCase() + purpose.slice(1) + '.', '');
    const tables = tablesOf(module);
    out.push(`- Tables: ${tables.length ? tables.map((t) => `\`${t}\``).join(', ') : 'none of its own'}`);
    const readsOf = [...(reads.get(module) ?? new Map()).entries()].sort(([a], [b]) => a.localeCompare(b));
    if (readsOf.length) {
      out.push('- Reads the tables of (declared in `eslint/schema-reads.js`):');
      for (const [owner, tables] of readsOf)
        out.push(
          `  - \`${owner}\`: ${[...tables.keys()]
            .sort()
            .map((t) => `\`${t}\``)
            .join(', ')}`,
        );
    }
    const called = publicSurface(module);
    if (called.size) {
      out.push('- Called by other modules (its `index.ts`):');
      for (const [file, names] of [...called.entries()].sort(([a], [b]) => a.localeCompare(b)))
        out.push(
          `  - \`${file}\`: ${[...names]
            .sort()
            .map((n) => `\`${n}\``)
            .join(', ')}`,
        );
    }
    out.push('');
  }
  out.push('## Web features', '', '| feature | server module |', '| --- | --- |');
  for (const feature of dirs(featuresDir))
    out.push(`| \`${feature}\` | ${featureModule(feature, modules)} |`);
  out.push('');
  // Formatted as `npm run format` would, so that the format check and the test agree.
  const options = (await resolveConfig(MODULE_MAP_PATH)) ?? {};
  return format(out.join('\n'), { ...options, parser: 'markdown' });
}

export const MODULE_MAP_PATH = join(repo, 'docs/module-map.md');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(MODULE_MAP_PATH, await renderModuleMap());
  console.info(`wrote ${MODULE_MAP_PATH}`);
}
