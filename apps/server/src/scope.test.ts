import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CODE, ALL_CODES } from '@portal/contract/menus';
import { FILE_PATHS } from '@portal/contract/files';
import ExcelJS from 'exceljs';
import { DEBTOR_PATHS, type DebtorLineView } from '@portal/contract/debtor';
import { BIZ_TYPES, PRINT_PATHS } from '@portal/contract/print';
import { DOC_TYPE_KEYS, docRefQuery, WORKFLOW_PATHS, type WorkflowCounts } from '@portal/contract/workflow';
import { WORKFLOW_REGISTRY } from './modules/workflow';
import { createUser } from './modules/workflow/testkit';
import { OUTSIDE_SCOPE_REASON } from './modules/debtor/lines';
import { MODULES } from './modules';
import {
  addScopeKinds,
  rowScopeCondition,
  scopeKind,
  scopeKindNames,
  type ScopeKind,
} from './platform/auth/row-scope';
import type { ScopeUser } from './platform/auth/data-scope';
import { queryRows } from './platform/db/client';
import { cellText } from './platform/xlsx';
import type { RouteRecord } from './platform/http/route';
import { resolveRouteScope } from './platform/http/route-scope';
import { expectWiderRefused } from './testing/within';
import { tableChecksums } from './testing/checksum';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  type CallResult,
  type TestClient,
  type TestPortal,
} from './testing/harness';
import { addScopeFixtures } from './scope.fixtures';

/**
 * Generated from the server's own route table, like routes.test.ts: a user of another
 * organisation (乙部, scope 本组织及下级) holding every code but admin gets 404 from every route
 * naming a row outside their scope, whatever else the request says, and nothing is written; every
 * list answers none of those rows. The demo data and the fixtures below give every kind rows that
 * lie outside 乙部.
 */
let t: TestPortal;
let admin: TestClient;
let other: TestClient;
let otherScope: ScopeUser;
/** Per kind: one row outside 乙部 (named in the requests), and all of them (looked for in lists). */
const outside = new Map<ScopeKind, { one: string; all: Set<string> }>();
const counts = { routes: 0, refused: 0, lists: 0, listsWithRows: 0, exportsWithRows: 0, docTypes: 0 };
const unscoped: string[] = [];

// Every module's kinds, as the portal registers them (known here before the portal is built).
for (const m of MODULES) if (m.scopeKinds) addScopeKinds(m.scopeKinds);
const KINDS = scopeKindNames();
const PASSWORD = 'Other@12345678';

beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
  admin = await t.login();
  const { db } = t.database;
  await addScopeFixtures(db);
  const yi = await createDept(db, '乙部');
  const everything = [...ALL_CODES].filter((c) => c !== ADMIN_CODE);
  const { userId } = await createUserWithCodes(db, 'other-org', PASSWORD, everything, {
    deptId: yi.id,
    dataScope: 'dept',
  });
  otherScope = { userId, deptId: yi.id, dataScope: 'dept' };
  other = await t.login('other-org', PASSWORD);
  for (const kind of KINDS) {
    const k = scopeKind(kind);
    const rows = await queryRows<{ code: string }>(
      db,
      sql`select ${sql.raw(k.code)} as code from ${sql.raw(k.from)}
           where ${sql.raw(k.live)} and not coalesce(${rowScopeCondition(kind, otherScope)}, false) order by 1`,
    );
    if (rows[0]) outside.set(kind, { one: rows[0].code, all: new Set(rows.map((r) => r.code)) });
  }
}, 300_000);

afterAll(() => {
  console.info(
    `row scope: ${counts.routes} scoped routes, ${counts.refused} requests refused with 404; ` +
      `${counts.lists} lists (${counts.listsWithRows} where the administrator sees rows, ${counts.exportsWithRows} of them files) ` +
      `show none of them; ${counts.docTypes} document types' approval views, attachments and prints follow them`,
  );
  console.info(`deliberately unscoped routes (${unscoped.length}):\n  ${unscoped.join('\n  ')}`);
  return t.close();
});

/** The route's query and body each carrying `param`, as far as the route takes them. */
function request(r: RouteRecord, param: string, value: string) {
  const named = { [param]: value };
  return {
    body: r.method === 'POST' && r.body ? named : undefined,
    opts: { method: r.method, query: named },
  };
}

/** Every value of the fields named like the kind's parameters, anywhere in an answer. */
function codesIn(data: unknown, fields: readonly string[], found = new Set<string>()): Set<string> {
  if (Array.isArray(data)) for (const d of data) codesIn(d, fields, found);
  else if (data && typeof data === 'object')
    for (const [key, value] of Object.entries(data)) {
      if (fields.includes(key) && typeof value === 'string') found.add(value);
      else codesIn(value, fields, found);
    }
  return found;
}

/**
 * The codes an answer shows: the fields named like the kind's parameters of a JSON answer; every
 * cell of an export (xlsx); every 12-digit code in a printed list (HTML).
 */
async function shownCodes(res: CallResult, fields: readonly string[]): Promise<Set<string>> {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('spreadsheetml')) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.raw as unknown as ArrayBuffer);
    const cells = new Set<string>();
    book.eachSheet((sheet) =>
      sheet.eachRow((row) => row.eachCell((cell) => void cells.add(cellText(cell.value).trim()))),
    );
    return cells;
  }
  if (type.includes('text/html'))
    return new Set(res.raw.toString('utf8').match(/(?<!\d)\d{12}(?!\d)/g) ?? []);
  return codesIn(res.data, fields);
}

/** Bodies of lists that need more than paging. */
const LIST_BODIES: Record<string, unknown> = {
  '/api/ft/api/accounts/reconcile': { dateFrom: '2000-01-01', dateTo: '2099-12-31' },
  '/api/ft/api/classification/migration': { fromMonth: '2000-01', toMonth: '2099-12' },
};

/** Queries of lists that name what they list (a customer's credit lines). */
async function listQuery(path: string): Promise<Record<string, string>> {
  if (path !== '/api/ft/api/credit/lines') throw new Error(`${path}: which query does this list take?`);
  const [credit] = await queryRows<{ code: string }>(
    t.database.db,
    sql`select cust_code as code from credits where deleted_at is null order by id limit 1`,
  );
  return { custCode: credit!.code };
}

describe('every route declares its row scope', () => {
  it('gives each kind rows outside the other organisation', () => {
    const used = new Set(
      t.portal.routes.flatMap((r) => (resolveRouteScope(r.scope) ?? []).map((s) => s.kind)),
    );
    expect([...used].filter((k) => !outside.has(k)).sort()).toEqual([]);
  });

  it(
    'answers 404 to a user of another organisation for a row outside their scope, writing nothing',
    { timeout: 600_000 },
    async () => {
      const before = await tableChecksums(t.database.db);
      for (const r of t.portal.routes) {
        const scopes = resolveRouteScope(r.scope);
        if (!scopes) {
          if (r.method === 'POST' && typeof r.scope === 'object' && 'none' in r.scope)
            unscoped.push(`${r.path}: ${r.scope.none}`);
          continue;
        }
        counts.routes++;
        for (const s of scopes) {
          for (const param of s.params) {
            const row = outside.get(s.kind)!;
            const { body, opts } = request(r, param, row.one);
            const res = await other.call(r.path, body, opts);
            const label = `${r.method} ${r.path} ${s.kind} by ${param}`;
            expect([res.httpStatus, res.msg], label).toEqual([404, `${scopeKind(s.kind).label}不存在`]);
            counts.refused++;
          }
        }
      }
      expect(await tableChecksums(t.database.db)).toEqual(before);
    },
  );

  it('lists none of the rows outside the scope', { timeout: 300_000 }, async () => {
    for (const r of t.portal.routes) {
      if (r.method !== 'POST') continue;
      const lists = (resolveRouteScope(r.scope) ?? []).filter((s) => s.params.length === 0);
      if (lists.length === 0) continue;
      counts.lists++;
      const body = r.body ? (LIST_BODIES[r.path] ?? { pageNum: 1, pageSize: 500 }) : undefined;
      const query = r.query ? await listQuery(r.path) : undefined;
      const mine = await other.call(r.path, body, query ? { query } : {});
      expect(mine.httpStatus, r.path).toBe(200);
      const theirs = await admin.call(r.path, body, query ? { query } : {});
      let adminSaw = false;
      for (const { kind } of lists) {
        const fields = scopeKind(kind).params;
        const hidden = outside.get(kind)?.all ?? new Set<string>();
        const seen = [...(await shownCodes(mine, fields))].filter((c) => hidden.has(c));
        expect(seen, `${r.path} shows ${kind} rows outside the scope`).toEqual([]);
        if ([...(await shownCodes(theirs, fields))].some((c) => hidden.has(c))) adminSaw = true;
      }
      if (adminSaw) counts.listsWithRows++;
      if (adminSaw && mine.data === undefined) counts.exportsWithRows++;
    }
    expect(counts.listsWithRows).toBeGreaterThan(5);
    // Exports and printed lists are walked too (their answer is a file, not JSON).
    expect(counts.exportsWithRows).toBeGreaterThan(3);
  });
});

describe('no escalation by data scope', () => {
  it(
    'answers 401 from every route declaring `within` for a user or role inside the scope that reaches beyond it',
    { timeout: 120_000 },
    async () => {
      const { db } = t.database;
      // A role of 自定义 reaching 总部 (above 乙部), held by a user of 乙部: no code, only reach.
      const [made] = await queryRows<{ role: string; user: string }>(
        db,
        sql`with r as (
              insert into roles (biz_code, name, code, data_scope)
                values ('000000990001', '总部数据', 'reach-root', 'custom') returning id, biz_code),
            d as (insert into role_depts select r.id, (select id from depts where parent_id is null) from r),
            u as (
              insert into users (user_code, user_name, real_name, dept_id, password_hash)
                values ('000000990001', 'reach-root', '总部数据', ${otherScope.deptId}, 'x') returning id, user_code),
            ur as (insert into user_roles select u.id, r.id from u, r)
          select r.biz_code as role, u.user_code as user from r, u`,
      );
      await expectWiderRefused(t, other, { staff: made!.user, role: made!.role });
    },
  );
});

describe('the one document pipeline', () => {
  it('registers every document type, so none applies scope, transaction and reply by hand', () => {
    expect([...t.portal.registries.get(WORKFLOW_REGISTRY).pipelinedTypes()].sort()).toEqual(
      [...DOC_TYPE_KEYS].sort(),
    );
  });
});

describe('what follows a document', () => {
  const contract = () => outside.get('contract')!.one;

  it('its approval views and prints answer 404 where the document does', async () => {
    const ref = { docType: 'contract', docCode: contract() };
    for (const path of [WORKFLOW_PATHS.process, WORKFLOW_PATHS.records, WORKFLOW_PATHS.circulation]) {
      expect((await other.call(`/api${path}`, undefined, { query: ref })).httpStatus, path).toBe(404);
      expect((await admin.call(`/api${path}`, undefined, { query: ref })).httpStatus, path).toBe(200);
    }
    const circulate = await other.call(`/api${WORKFLOW_PATHS.circulate}`, { userIds: [1] }, { query: ref });
    expect(circulate.httpStatus).toBe(404);
    const print = { bizType: 'contract', docCode: contract() };
    const html = await other.call(`/api${PRINT_PATHS.perViewHtml}`, print);
    expect([html.httpStatus, html.msg]).toEqual([404, '合同不存在']);
    expect((await admin.call(`/api${PRINT_PATHS.perViewHtml}`, print)).httpStatus).toBe(200);
    const files = await other.call(`/api${FILE_PATHS.list}`, ref);
    expect(files.httpStatus).toBe(404);
    expect((await admin.call(`/api${FILE_PATHS.list}`, ref)).httpStatus).toBe(200);
  });

  it('of every document type, its approval views, attachments and print answer 404 where the document does', async () => {
    for (const docType of DOC_TYPE_KEYS) {
      const row = outside.get(docType);
      expect(row, `${docType}: no row outside the scope to try`).toBeDefined();
      const ref = { docType, docCode: row!.one };
      for (const path of [WORKFLOW_PATHS.process, WORKFLOW_PATHS.records, WORKFLOW_PATHS.circulation]) {
        const res = await other.call(`/api${path}`, undefined, { query: ref });
        expect([res.httpStatus, res.msg?.endsWith('不存在')], `${docType} ${path}`).toEqual([404, true]);
        expect((await admin.call(`/api${path}`, undefined, { query: ref })).httpStatus, path).toBe(200);
      }
      const files = await other.call(`/api${FILE_PATHS.list}`, ref);
      expect(files.httpStatus, `${docType} files`).toBe(404);
      expect((await admin.call(`/api${FILE_PATHS.list}`, ref)).httpStatus, `${docType} files`).toBe(200);
      if ((BIZ_TYPES as readonly string[]).includes(docType)) {
        const print = { bizType: docType, docCode: row!.one };
        const html = await other.call(`/api${PRINT_PATHS.perViewHtml}`, print);
        expect([html.httpStatus, html.msg], `${docType} print`).toEqual([
          404,
          `${scopeKind(docType).label}不存在`,
        ]);
      }
      counts.docTypes++;
    }
  });

  it('a debtor line, no one’s, names no contract outside the scope among its movements', async () => {
    const [line] = await queryRows<{ code: string }>(
      t.database.db,
      sql`select l.biz_code as code from debtor_lines l join debtor_ledger g on g.line_id = l.id
           where g.contract_id is not null order by l.id limit 1`,
    );
    const query = { bizCode: line!.code };
    const theirs = await admin.ok<DebtorLineView>(`/api${DEBTOR_PATHS.line}`, undefined, { query });
    const hidden = outside.get('contract')!.all;
    expect(theirs.ledger.filter((l) => hidden.has(l.docCode)).length).toBeGreaterThan(0);
    const mine = await other.ok<DebtorLineView>(`/api${DEBTOR_PATHS.line}`, undefined, { query });
    expect(mine.ledger.map((l) => l.amount)).toEqual(theirs.ledger.map((l) => l.amount));
    for (const l of mine.ledger.filter((x) => x.docType === 'contract'))
      expect([l.docCode, l.reason, l.actorName]).toEqual(['', OUTSIDE_SCOPE_REASON, null]);
  });

  it('the process monitor lists no instance of a document outside the scope', async () => {
    const mine = await other.ok<{ list: { docType: string; docCode: string }[] }>(
      `/api${WORKFLOW_PATHS.instances}`,
      { pageNum: 1, pageSize: 500 },
    );
    const all = await admin.ok<{ list: { docType: string; docCode: string }[] }>(
      `/api${WORKFLOW_PATHS.instances}`,
      { pageNum: 1, pageSize: 500 },
    );
    expect(all.list.length).toBeGreaterThan(0);
    expect(mine.list).toEqual([]);
  });
});

describe('an approval step role', () => {
  it('reaches no document outside the data scope it grants: every route naming one answers 404', async () => {
    const { db } = t.database;
    // 风控 scoped 本组织, held by a user of 乙部 (issue 39): every demo document lies outside.
    await db.execute(sql`update roles set data_scope = 'dept' where code = 'risk'`);
    const id = await createUser(db, 'other-risk', '乙部风控', ['risk']);
    await db.execute(
      sql`update users set dept_id = (select id from depts where name = '乙部') where id = ${id}`,
    );
    const risk = await t.login('other-risk');
    const docs = await queryRows<{ doc_type: string; doc_code: string }>(
      db,
      sql`select distinct on (doc_type) doc_type, doc_code from wf_instances
           where steps @> '[{"roleCode": "risk"}]'::jsonb order by doc_type, id`,
    );
    expect(docs.length).toBeGreaterThanOrEqual(2);
    const routes = t.portal.routes.filter((r) => r.query === docRefQuery);
    expect(routes.length).toBeGreaterThanOrEqual(3);
    const before = await tableChecksums(db);
    for (const d of docs)
      for (const r of routes) {
        const res = await risk.call(r.path, r.body ? { userIds: [id] } : undefined, {
          query: { docType: d.doc_type, docCode: d.doc_code },
        });
        expect([res.httpStatus, res.msg?.endsWith('不存在')], `${r.path} ${d.doc_type}`).toEqual([404, true]);
      }
    expect(await tableChecksums(db)).toEqual(before);
    expect(await risk.ok<WorkflowCounts>(`/api${WORKFLOW_PATHS.counts}`)).toMatchObject({ todo: 0 });
  });
});
