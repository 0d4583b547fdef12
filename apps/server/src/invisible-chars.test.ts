import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_PATHS } from '@portal/contract/permission';
import { tableChecksums } from './testing/checksum';
import { createTestPortal, type TestClient, type TestPortal } from './testing/harness';
import { addOwnAccount } from './modules/contract/testkit';
import { incomeApi } from './modules/paid/testkit';

/**
 * Characters that show nothing, through the real app (SECURITY.md "Input"): refused in names and
 * remarks, stripped from a bank serial before it is compared, so one serial cannot be registered
 * twice on an account by hiding a tag character in it.
 */
let t: TestPortal;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(() => t.close());

let account: string | undefined;
/** An incoming's fields on our own account (one account for the file). */
async function income() {
  account ??= await addOwnAccount(admin);
  return { bankBizCode: account, payerName: '核心买方有限公司', amount: '100.00', valueDate: '2026-01-15' };
}

describe('invisible characters', () => {
  it.each([
    ['line separator', '\u2028'],
    ['tag character', '\u{E0041}'],
    ['Hangul filler', '\u3164'],
    ['blank Braille pattern', '\u2800'],
  ])('refuses a %s in a name and a remark, naming the field, writing nothing', async (_, ch) => {
    const body = { ...(await income()), serialNo: 'RMK-1' };
    const before = await tableChecksums(t.database.db);
    const name = await admin.call(`/api${PERMISSION_PATHS.orgAdd}`, {
      name: `财务${ch}部`,
      state: 'enabled',
    });
    expect([name.httpStatus, name.msg]).toEqual([400, '组织名称不能包含控制字符、换行或不可见字符']);
    const remark = await admin.call(incomeApi.saveBaseInfo, { ...body, remark: `第一行${ch}第二行` });
    expect([remark.httpStatus, remark.msg]).toEqual([400, '备注不能包含控制字符、换行或不可见字符']);
    expect(await tableChecksums(t.database.db)).toEqual(before);
  });

  it('reads DUP<U+E0041>613962 as the serial DUP613962 already registered on the account', async () => {
    const body = await income();
    const first = await admin.ok<{ fiidBizCode: string }>(incomeApi.saveBaseInfo, {
      ...body,
      serialNo: 'DUP613962',
    });
    const before = await tableChecksums(t.database.db);
    const dup = await admin.call(incomeApi.saveBaseInfo, { ...body, serialNo: 'DUP\u{E0041}613962' });
    expect([dup.status, dup.msg]).toEqual([
      409,
      `银行流水号 DUP613962 在该收款账户已登记（来款 ${first.fiidBizCode}）`,
    ]);
    expect(await tableChecksums(t.database.db)).toEqual(before);
  });
});
