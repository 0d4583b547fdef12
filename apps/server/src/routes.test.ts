import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docRefQuery } from '@portal/contract/workflow';
import { addCustomer, creditApi, platform } from './modules/credit/testkit';
import { createUser } from './modules/workflow/testkit';
import { ADMIN_CODE, ALL_CODES } from '@portal/contract/menus';
import { ENVELOPE_HEADERS as H, sealRequest } from '@portal/contract/envelope';
import { ADMIN_ROLE_CODE, ADMIN_USER_NAME } from '@portal/contract/permission';
import { hashPassword } from './platform/auth/password-hash';
import { queryRows } from './platform/db/client';
import { nextCode } from './platform/db/codes';
import type { RouteRecord } from './platform/http/route';
import { GRANT_TARGETS, resolveRouteScope, type GrantTarget } from './platform/http/route-scope';
import { tableChecksums } from './testing/checksum';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  TEST_PASSWORD_HASH_COST,
} from './testing/harness';
import { expectWiderRefused } from './testing/within';

/**
 * Generated from the server's own route table, so a new route is covered without anyone
 * remembering: no session -> 403, a session without the code -> 401, the right code
 * with a body of the wrong shape -> 400 with a Chinese message; never a 5xx, never a changed row.
 */
let t: TestPortal;
let admin: TestClient;
let nobody: TestClient;
const counts = {
  routes: 0,
  noSession: 0,
  noCode: 0,
  badShape: 0,
  allButOwn: 0,
  noEnvelope: 0,
  badSignature: 0,
  replayed: 0,
};

beforeAll(async () => {
  // The walkers call every route several times within a minute as one user; the rate limits have
  // their own tests (platform/http/rate-limits.test.ts).
  t = await createTestPortal({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_IP_PER_MINUTE: '0' });
  admin = await t.login();
  const { db } = t.database;
  await db.execute(sql`insert into users (user_code, user_name, real_name, password_hash)
    values (${await nextCode(db, 'user')}, 'no-roles', '无角色', ${await hashPassword('Noroles@123456', TEST_PASSWORD_HASH_COST)})`);
  nobody = await t.login('no-roles', 'Noroles@123456');
});
afterAll(() => {
  console.info(
    `route registry: ${counts.routes} routes; ${counts.noSession} checked for 403, ${counts.noCode} for 401, ` +
      `${counts.allButOwn} for 401 holding every other code, ${counts.badShape} for 400; envelope: ` +
      `${counts.noEnvelope} refused without it, ${counts.badSignature} with a bad signature, ${counts.replayed} replayed`,
  );
  return t.close();
});

const queryFor = (r: RouteRecord) => (r.query ? { bizCode: '000000000001' } : undefined);

describe('every route', () => {
  it(
    'answers 403 without a session, 401 without its code, 400 for a body of the wrong shape, and writes nothing',
    { timeout: 300_000 },
    async () => {
      const routes = t.portal.routes;
      expect(routes.length).toBeGreaterThan(10);
      const before = await tableChecksums(t.database.db);
      for (const r of routes) {
        counts.routes++;
        const label = `${r.method} ${r.path}`;
        const query = queryFor(r);
        if (r.perm !== 'public') {
          const anon = await t.client().call(r.path, r.method === 'POST' && r.body ? {} : undefined, {
            method: r.method,
            ...(query ? { query } : {}),
          });
          expect(anon.httpStatus, label).toBe(403);
          counts.noSession++;
        }
        if (r.perm !== 'public' && r.perm !== 'session') {
          const res = await nobody.call(r.path, r.method === 'POST' && r.body ? {} : undefined, {
            method: r.method,
            ...(query ? { query } : {}),
          });
          expect(res.httpStatus, label).toBe(401);
          counts.noCode++;
        }
        if (r.body && r.method === 'POST') {
          for (const wrong of [['not', 'an', 'object'], 'text', 42]) {
            const res = await admin.call(r.path, wrong, query ? { query } : {});
            expect(res.httpStatus, `${label} ${JSON.stringify(wrong)}`).toBe(400);
            expect(res.msg, label).toMatch(/[\u4e00-\u9fff]/);
          }
          counts.badShape++;
        }
        if (r.query) {
          const res = await admin.call(r.path, r.method === 'POST' && r.body ? {} : undefined, {
            method: r.method,
            query: { bizCode: "1' or '1'='1" },
          });
          expect(res.httpStatus, `${label} bad query`).toBeLessThan(500);
          expect(res.httpStatus, `${label} bad query`).not.toBe(200);
        }
      }
      expect(await tableChecksums(t.database.db)).toEqual(before);
    },
  );
});

/** The menu and button codes a route asks for (none for public and session routes). */
const codesOf = (r: RouteRecord): readonly string[] =>
  r.perm === 'public' || r.perm === 'session' ? [] : typeof r.perm === 'string' ? [r.perm] : r.perm;

describe('every route, the call half of its permission (SECURITY.md "Permissions")', () => {
  it(
    'answers 401 to a user holding every code of the catalogue but the route’s own, writing nothing',
    { timeout: 300_000 },
    async () => {
      const { db } = t.database;
      const everything = [...ALL_CODES].filter((c) => c !== ADMIN_CODE);
      const { roleId } = await createUserWithCodes(db, 'all-but-own', 'AllButOwn@12345', everything);
      const user = await t.login('all-but-own', 'AllButOwn@12345');
      const before = await tableChecksums(db);
      for (const r of t.portal.routes) {
        const own = codesOf(r);
        if (own.length === 0) continue;
        // The role loses exactly the route's codes (a menu code too: a button never stands in for
        // its menu, nor a menu for its buttons); the session reads the change at once (sessions.ts).
        await db.execute(sql`delete from role_menus where role_id = ${roleId} and menu_code in ${own}`);
        const query = queryFor(r);
        const res = await user.call(r.path, r.method === 'POST' && r.body ? {} : undefined, {
          method: r.method,
          ...(query ? { query } : {}),
        });
        expect(res.httpStatus, `${r.method} ${r.path} without ${own.join(' | ')}`).toBe(401);
        for (const code of own)
          if (code !== ADMIN_CODE)
            await db.execute(sql`insert into role_menus (role_id, menu_code) values (${roleId}, ${code})`);
        counts.allButOwn++;
      }
      expect(await tableChecksums(db)).toEqual(before);
    },
  );

  it('opens every button of the catalogue on some route: a screen’s button checks the code the server asks for', () => {
    const asked = new Set(t.portal.routes.flatMap(codesOf));
    const buttons = [...ALL_CODES].filter((c) => c.includes(':'));
    expect(buttons.filter((c) => !asked.has(c) && !BUTTONS_WITHOUT_ROUTE.has(c))).toEqual([]);
  });
});

/**
 * Buttons of the catalogue that no route asks for, known and kept: each grants nothing, so holding
 * it opens nothing. Listed so that a new one is seen (a button whose route asks another code, or a
 * screen action without a call). The 打印 of documents without a print type come from the shared
 * document actions (menus.ts DOC); 对账 has no export.
 */
const BUTTONS_WITHOUT_ROUTE = new Set<string>([
  'ft-contract-chg:print',
  'ft-income:print',
  'crm-cor-info:print',
  'crm-cor-mg:print',
  'ft-cust-admit:print',
  'ft-reconcile:export',
]);

describe('every route, the envelope (docs/protocol.md "The envelope")', () => {
  it(
    'refuses a call without the envelope, with a forged signature, and a replayed one with 422, writing nothing',
    { timeout: 300_000 },
    async () => {
      const before = await tableChecksums(t.database.db);
      const key = await admin.envelopeKey();
      for (const r of t.portal.routes) {
        const label = `${r.method} ${r.path}`;
        if (!r.envelope) {
          // Only multipart uploads, downloads opened by the browser and public reads go without it.
          expect(r.body, `${label} takes a JSON body without the envelope`).toBeUndefined();
          continue;
        }
        // A wrong-shaped body (or a hostile query) that validation refuses once the envelope is open,
        // so that no handler runs; what is under test is the envelope alone.
        const body = r.method === 'POST' && r.body ? 'text' : undefined;
        const query = r.query ? { bizCode: "1' or '1'='1" } : undefined;
        const url = r.path + (query ? `?${new URLSearchParams(query).toString()}` : '');
        const auth = r.perm === 'public' ? {} : { authorization: `Bearer ${admin.token}` };

        const plain = await admin.call(r.path, body, {
          method: r.method,
          plain: true,
          ...(query ? { query } : {}),
        });
        expect([plain.httpStatus, plain.msg], `${label} without the envelope`).toEqual([
          422,
          '请求未加密或缺少签名',
        ]);
        counts.noEnvelope++;

        const forged = await sealRequest(key, r.method, url, body);
        const bad = await t.portal.app.inject({
          method: r.method,
          url,
          headers: { ...auth, ...forged.headers, [H.signature]: '0'.repeat(64) },
          ...(forged.body !== undefined ? { payload: forged.body } : {}),
        });
        expect([bad.statusCode, bad.json<{ msg: string }>().msg], `${label} forged`).toEqual([
          422,
          '请求签名校验失败',
        ]);
        counts.badSignature++;

        if (!body && !query) continue;
        const sealed = await sealRequest(key, r.method, url, body);
        const send = () =>
          t.portal.app.inject({
            method: r.method,
            url,
            headers: { ...auth, ...sealed.headers },
            ...(sealed.body !== undefined ? { payload: sealed.body } : {}),
          });
        const first = await send();
        expect(first.statusCode, `${label} first`).not.toBe(422);
        expect(first.statusCode, `${label} first`).toBeLessThan(500);
        const again = await send();
        expect([again.statusCode, again.json<{ msg: string }>().msg], `${label} replayed`).toEqual([
          422,
          '重复的请求已被拒绝',
        ]);
        counts.replayed++;
      }
      expect(await tableChecksums(t.database.db)).toEqual(before);
    },
  );
});

describe('routes naming a document by docType and docCode (the approval views, circulate, withdraw)', () => {
  it('answer 401 to a session with neither the screen nor a step role, 404 to a step role whose scope leaves the document out', async () => {
    const { db } = t.database;
    const custCode = await addCustomer(db, '路由测试客户有限公司');
    const saved = await admin.ok<{ bizCode: string; version: number }>(
      creditApi.saveCreditPlatform,
      platform(custCode),
    );
    await admin.ok(creditApi.saveCreditPlatform, { ...platform(custCode), ...saved, submit: true });
    // 风控 scoped 本人: the administrator's credit lies outside it (SECURITY.md "Approvals").
    await db.execute(sql`update roles set data_scope = 'self' where code = 'risk'`);
    await createUser(db, 'step-only', '仅审批角色', ['risk']);
    const stepOnly = await t.login('step-only');
    const routes = t.portal.routes.filter((r) => r.query === docRefQuery);
    expect(routes.length).toBeGreaterThanOrEqual(3);
    for (const r of routes) {
      const body = r.body ? { userIds: [1] } : undefined;
      const query = { query: { docType: 'credit', docCode: saved.bizCode } };
      expect((await nobody.call(r.path, body, query)).httpStatus, r.path).toBe(401);
      expect((await stepOnly.call(r.path, body, query)).httpStatus, r.path).toBe(404);
    }
  });
});

/** The field names of a route's body and query schemas. */
function fieldsOf(r: RouteRecord): string[] {
  return [r.body, r.query].flatMap((s) => (s && 'shape' in s ? Object.keys(s.shape as object) : []));
}

/**
 * What a route acts on (SECURITY.md "No escalation"): a button that names a staff user by its row
 * scope, by one of their sessions, or by sign-in name outside a list's filters; or a button of
 * 角色管理 that names a role.
 */
function actsOn(r: RouteRecord): GrantTarget | undefined {
  if (typeof r.perm !== 'string' || !r.perm.includes(':')) return undefined;
  if ((resolveRouteScope(r.scope) ?? []).some((s) => s.kind === 'staff' && s.params.length > 0))
    return 'staff';
  const fields = fieldsOf(r);
  if (fields.includes('sessionId')) return 'staffBySession';
  // Only 系统监控 names a staff user by sign-in name (登录日志's unlock); elsewhere userName is the
  // name a user is given (用户管理, 企业用户).
  if (fields.includes('userName') && !fields.includes('pageNum') && r.perm.startsWith('monitor-'))
    return 'staffByName';
  if (r.perm.startsWith('permission-role:') && fieldsOf(r).some((f) => GRANT_TARGETS.role.params.includes(f)))
    return 'role';
  return undefined;
}

describe('no escalation, from the route table', () => {
  it('every route acting on a user or a role declares that it must be within the caller', () => {
    const acting = t.portal.routes.filter((r) => actsOn(r) !== undefined);
    expect(acting.length).toBeGreaterThanOrEqual(7);
    for (const r of acting) expect(r.within, `${r.method} ${r.path}`).toBe(actsOn(r));
    for (const r of t.portal.routes.filter((x) => x.within))
      expect(actsOn(r), `${r.method} ${r.path} declares within`).toBe(r.within);
  });

  it(
    'answers 401 to a caller holding every other code for the administrator and their role, writing nothing',
    { timeout: 120_000 },
    async () => {
      const { db } = t.database;
      const everything = [...ALL_CODES].filter((c) => c !== ADMIN_CODE);
      await createUserWithCodes(db, 'all-but-admin', 'Almost@12345678', everything, { dataScope: 'all' });
      const almost = await t.login('all-but-admin', 'Almost@12345678');
      const [target] = await queryRows<{ user: string; role: string }>(
        db,
        sql`select (select user_code from users where user_name = ${ADMIN_USER_NAME}) as user,
                   (select biz_code from roles where code = ${ADMIN_ROLE_CODE}) as role`,
      );
      await expectWiderRefused(t, almost, { staff: target!.user, role: target!.role });
    },
  );
});

describe('the OpenAPI document', () => {
  it('lists every route with its permission, at GET /api/docs without a session', async () => {
    const res = await t.portal.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, { 'x-permission': unknown }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const r of t.portal.routes) {
      expect(doc.paths[r.path]?.[r.method.toLowerCase()]?.['x-permission'], `${r.method} ${r.path}`).toEqual(
        r.perm,
      );
    }
  });
});

describe('HSTS behind a TLS proxy', () => {
  const hsts = (headers: Record<string, unknown>) => headers['strict-transport-security'];

  it('is sent when TRUST_PROXY believes X-Forwarded-Proto: https, also on refusals', async () => {
    const behind = await createTestPortal({ TRUST_PROXY: 'true' });
    try {
      for (const url of ['/api/docs', '/api/admin/portal/user/info', '/api/no/such/route']) {
        const method = url === '/api/docs' ? 'GET' : 'POST';
        const https = await behind.portal.app.inject({
          method,
          url,
          headers: { 'x-forwarded-proto': 'https' },
        });
        expect(hsts(https.headers), url).toBe('max-age=31536000');
        const plain = await behind.portal.app.inject({ method, url });
        expect(hsts(plain.headers), url).toBeUndefined();
      }
    } finally {
      await behind.close();
    }
  });

  it('is not sent when the proxy is not trusted, nor with HSTS=off', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    expect(
      hsts((await t.portal.app.inject({ method: 'GET', url: '/api/docs', headers: https })).headers),
    ).toBeUndefined();
    const off = await createTestPortal({ TRUST_PROXY: 'true', HSTS: 'off' });
    try {
      expect(
        hsts((await off.portal.app.inject({ method: 'GET', url: '/api/docs', headers: https })).headers),
      ).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
