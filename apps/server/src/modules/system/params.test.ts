import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_PATHS } from '@portal/contract/files';
import { PRINT_PATHS } from '@portal/contract/print';
import {
  SYSPARAM_MENU,
  SYSPARAM_PATHS as P,
  type SysParamsInput,
  type SysParamsView,
} from '@portal/contract/sysparams';
import { buttonCode } from '@portal/contract/menus';
import { queryRows } from '../../platform/db/client';
import { LiveParams } from '../../platform/params';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  served,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, MONTHLY_RULE } from '../contract/testkit';

const PW = 'Params@12345678';
/** A 1×1 PNG. */
const SEAL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let t: TestPortal;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestPortal({
    SESSION_IDLE_MINUTES: '30',
    SESSION_ABSOLUTE_MINUTES: '600',
    COMPANY_NAME: '环境保理有限公司',
    LOG_RETENTION_DAYS: '90',
  });
  admin = await t.login();
});
afterAll(async () => t?.close());

const current = async () => (await admin.ok<SysParamsView>(served(P.get))).params;
const save = (c: TestClient, body: Partial<SysParamsInput>) => c.call<SysParamsView>(served(P.save), body);

describe('参数设置', () => {
  it('answers 401 without the codes; the screen alone may read but not save', async () => {
    await createUserWithCodes(t.database.db, 'no-params', PW, ['permission-user']);
    const plain = await t.login('no-params', PW);
    expect((await plain.call(served(P.get))).status).toBe(401);
    expect((await save(plain, await current())).status).toBe(401);
    // Without a session the answer is 403; 401 is a signed-in user without the code.
    expect((await t.client().call(served(P.get))).status).toBe(403);
    await createUserWithCodes(t.database.db, 'params-reader', PW, [SYSPARAM_MENU]);
    const reader = await t.login('params-reader', PW);
    expect((await reader.call(served(P.get))).status).toBe(200);
    expect((await save(reader, await current())).status).toBe(401);
    await createUserWithCodes(t.database.db, 'params-admin', PW, [
      SYSPARAM_MENU,
      buttonCode(SYSPARAM_MENU, 'save'),
    ]);
    const granted = await t.login('params-admin', PW);
    expect((await save(granted, await current())).status).toBe(200);
  });

  it('starts from the environment', async () => {
    expect(await current()).toMatchObject({
      sessionIdleMinutes: 30,
      sessionAbsoluteMinutes: 600,
      companyName: '环境保理有限公司',
      logRetentionDays: 90,
      uploadLimitMb: 50,
    });
  });

  it('refuses bad values with a message naming the field', async () => {
    const base = await current();
    const cases: [Partial<SysParamsInput>, string][] = [
      [{ sessionIdleMinutes: 1 }, '会话空闲超时（分钟）不能小于5'],
      [
        { sessionIdleMinutes: 60, sessionAbsoluteMinutes: 30 },
        '会话最长时长（分钟）不能小于会话空闲超时（分钟）',
      ],
      [{ uploadLimitMb: 1000 }, '上传文件大小上限（MB）不能大于200'],
      [{ companyName: '' }, '公司名称不能为空'],
      [{ companyRegNo: '123' }, '统一社会信用代码'],
      [{ companySeal: 'data:text/html;base64,PGI+' }, '公章图片必须是PNG或JPEG图片'],
      [{ logRetentionDays: 1 }, '日志保留天数不能小于30'],
    ];
    for (const [over, msg] of cases) {
      const r = await save(admin, { ...base, ...over });
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.msg).toContain(msg);
    }
    expect(await current()).toEqual(base);
  });

  it('saves, audits the changed fields (the seal as its size) and applies them at once', async () => {
    const before = await current();
    const auditCount = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            t.database.db,
            sql`select count(*)::int as n from audit_log where entity = 'sysParams'`,
          )
        )[0]!.n,
      );
    const n0 = await auditCount();
    const saved = await admin.ok<SysParamsView>(served(P.save), {
      ...before,
      sessionAbsoluteMinutes: 480,
      companyName: '华信商业保理有限公司',
      companyAddress: '上海市浦东新区世纪大道100号',
      companySeal: SEAL,
      companySignatory: '张伟',
    });
    expect(saved.params).toMatchObject({
      sessionAbsoluteMinutes: 480,
      companyName: '华信商业保理有限公司',
      companySeal: SEAL,
      companySignatory: '张伟',
    });
    expect(saved.updatedByName).toBeTruthy();
    const [row] = await queryRows<{
      detail: { before: Record<string, unknown>; after: Record<string, unknown> };
    }>(t.database.db, sql`select detail from audit_log where entity = 'sysParams' order by id desc limit 1`);
    expect(row!.detail.before).toEqual({
      sessionAbsoluteMinutes: 600,
      companyName: '环境保理有限公司',
      companyAddress: null,
      companySeal: null,
      companySignatory: null,
    });
    expect(row!.detail.after).toMatchObject({
      sessionAbsoluteMinutes: 480,
      companySeal: '图片（1KB）',
      companySignatory: '张伟',
    });
    // Saving the same values again changes nothing and writes no audit row.
    await admin.ok(served(P.save), saved.params);
    expect(await auditCount()).toBe(n0 + 1);

    // A new session lasts the new absolute time.
    await t.login();
    const [s] = await queryRows<{ minutes: number }>(
      t.database.db,
      sql`select round(extract(epoch from expires_at - created_at) / 60)::int as minutes from sessions order by id desc limit 1`,
    );
    expect(s!.minutes).toBe(480);
  });

  it('the upload limit takes effect on the next upload', async () => {
    const upload = async (bytes: number) => {
      const boundary = '----paramsBoundary';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`,
        ),
        Buffer.alloc(bytes, 0x61),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.portal.app.inject({
        method: 'POST',
        url: served(FILE_PATHS.upload),
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          authorization: `Bearer ${admin.token!}`,
        },
        payload,
      });
      return (res.json() as { status: number }).status;
    };
    const MB = 1024 * 1024;
    expect(await upload(1.5 * MB)).toBe(200);
    await admin.ok(served(P.save), { ...(await current()), uploadLimitMb: 1 });
    expect(await upload(1.5 * MB)).toBe(413);
    await admin.ok(served(P.save), { ...(await current()), uploadLimitMb: 50 });
  });

  it('reaches another server through the change notice', async () => {
    const other = new LiveParams({ ...t.config });
    await other.load(t.database.db);
    let failed: unknown;
    other.follow(t.database.changes, t.database.db, (err) => (failed = err));
    const base = await current();
    await admin.ok(served(P.save), { ...base, logRetentionDays: 400 });
    await expect.poll(() => other.current.logRetentionDays, { timeout: 5000 }).toBe(400);
    expect(failed).toBeUndefined();
  });

  it('prints our company as 甲方, with its seal', async () => {
    const checker = await addChecker(t, 'paramsChecker');
    const { bizCode } = await approvedContract(t, admin, checker, {
      rule: MONTHLY_RULE,
      limit: '5000000.00',
    });
    const res = await admin.call(served(PRINT_PATHS.perViewHtml), { bizType: 'contract', docCode: bizCode });
    expect(res.httpStatus).toBe(200);
    const html = res.raw.toString('utf8');
    expect(html).toContain('<td>华信商业保理有限公司</td>');
    expect(html).toContain('上海市浦东新区世纪大道100号');
    expect(html).toContain(`<img src="${SEAL}"`);
    expect(html).not.toContain('甲方（保理商）：</td><td>本公司');
  });
});
