import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_PATHS, type BankAccountView, type BankSave } from '@portal/contract/bank';
import { COMPANY_PATHS } from '@portal/contract/company';
import type { Page } from '@portal/contract/api';
import { usccCheckChar } from '@portal/contract/uscc';
import { auditLog } from '../../platform/db/audit';
import {
  createTestPortal,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { bankAccounts } from './schema';
import { defaultAccount, requireBankAccount } from './service';
import { uniqueIndexBrokenBy } from '../../testing/sql-state';

const bankApi = servedPaths(BANK_PATHS);

let t: TestPortal;
let admin: TestClient;
let comp: string;
let seq = 0;

async function newCustomer(name: string): Promise<string> {
  seq++;
  const first17 = `91110108MA${String(2_000_000 + seq).slice(-7)}`;
  const r = await admin.ok<{ compCode: string }>(`/api${COMPANY_PATHS.add}`, {
    compName: name,
    usccCode: first17 + usccCheckChar(first17),
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '李四',
    regCapital: '5000000.00',
    provinceCode: '110000',
  });
  return r.compCode;
}

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  comp = await newCustomer('银行账户测试有限公司');
});
afterAll(() => t.close());

let acct = 0;
const account = (over: Partial<BankSave> = {}): BankSave => ({
  ownerType: 'customer',
  ownerCode: comp,
  bankCode: '102',
  branchName: '中国工商银行北京海淀支行',
  accountName: '银行账户测试有限公司',
  accountNo: `0200${String(10_000_000 + ++acct)}`,
  currency: 'CNY',
  purpose: 'collect',
  ...over,
});

const view = (bizCode: string) => admin.ok<BankAccountView>(bankApi.view, undefined, { query: { bizCode } });

async function defaults(ownerCode: string, purpose: string) {
  return t.database.db
    .select({ bizCode: bankAccounts.bizCode })
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.ownerCode, ownerCode),
        eq(bankAccounts.purpose, purpose),
        eq(bankAccounts.isDefault, true),
        isNull(bankAccounts.deletedAt),
      ),
    );
}

describe('bank dictionary', () => {
  it('lists the seeded Chinese banks with their CNAPS codes, idempotently', async () => {
    const dict = await admin.ok<{ code: string; label: string }[]>(bankApi.dict);
    for (const [code, label] of [
      ['102', '中国工商银行'],
      ['103', '中国农业银行'],
      ['104', '中国银行'],
      ['105', '中国建设银行'],
      ['301', '交通银行'],
      ['308', '招商银行'],
      ['403', '中国邮政储蓄银行'],
    ])
      expect(dict).toContainEqual({ code, label });
    expect(new Set(dict.map((d) => d.code)).size).toBe(dict.length);
  });
});

describe('bank accounts', () => {
  it('saves, views and lists; the first account of an owner and purpose becomes default', async () => {
    const { bizCode } = await admin.ok<{ bizCode: string }>(
      bankApi.save,
      account({ accountNo: '6222 0210 0100 0000 01' }),
    );
    const v = await view(bizCode);
    expect(v).toMatchObject({
      ownerName: '银行账户测试有限公司',
      bankName: '中国工商银行',
      accountNo: '622202100100000001',
      isDefault: true,
      version: 0,
    });
    const second = await admin.ok<{ bizCode: string }>(bankApi.save, account());
    expect((await view(second.bizCode)).isDefault).toBe(false);
    const page = await admin.ok<Page<BankAccountView>>(bankApi.list, { ownerCode: comp, purpose: 'collect' });
    expect(page.total).toBe(2);
    expect(await defaultAccount(t.database.db, 'customer', comp, 'collect')).toMatchObject({ bizCode });
    await expect(requireBankAccount(t.database.db, bizCode, { ownerCode: '000000999998' })).rejects.toThrow(
      '银行账户不属于所选客户',
    );
  });

  it('refuses bad input naming the field; account numbers are unique per bank', async () => {
    const cases: [Partial<BankSave>, string][] = [
      [{ accountNo: '1234567' }, '银行账号必须是8到30位数字'],
      [{ accountNo: '12345678901234567890123456789012' }, '银行账号必须是8到30位数字'],
      [{ accountNo: '6222abc012345' }, '银行账号必须是8到30位数字'],
      [{ bankCode: '999' }, '开户银行不存在'],
      [{ branchName: '' }, '开户网点不能为空'],
      [{ ownerCode: undefined }, '所属客户不能为空'],
      [{ ownerType: 'self' }, '本公司账户不能选择所属客户'],
      [{ ownerCode: '000000999999' }, '所属客户不存在'],
      [{ currency: 'XXX' as never }, '币种取值不正确'],
      [{ purpose: undefined }, '账户用途不能为空'],
    ];
    for (const [over, msg] of cases) {
      const r = await admin.call(bankApi.save, account(over));
      expect([r.httpStatus, r.msg], JSON.stringify(over)).toEqual([400, msg]);
    }
    await admin.ok(bankApi.save, account({ accountNo: '11112222333344' }));
    const dup = await admin.call(bankApi.save, account({ accountNo: '11112222333344' }));
    expect([dup.httpStatus, dup.msg]).toEqual([409, '该开户银行下已存在相同的银行账号']);
    // The same number at another bank is another account.
    await admin.ok(bankApi.save, account({ accountNo: '11112222333344', bankCode: '104' }));
  });

  it('setDefault moves the default; delete of the default promotes the oldest; stale saves answer 409', async () => {
    const owner = await newCustomer('默认账户测试有限公司');
    const a = await admin.ok<{ bizCode: string }>(
      bankApi.save,
      account({ ownerCode: owner, purpose: 'repay' }),
    );
    const b = await admin.ok<{ bizCode: string }>(
      bankApi.save,
      account({ ownerCode: owner, purpose: 'repay' }),
    );
    const c = await admin.ok<{ bizCode: string }>(
      bankApi.save,
      account({ ownerCode: owner, purpose: 'repay', isDefault: true }),
    );
    expect(await defaults(owner, 'repay')).toEqual([{ bizCode: c.bizCode }]);
    await admin.ok(bankApi.setDefault, undefined, { query: { bizCode: b.bizCode } });
    expect(await defaults(owner, 'repay')).toEqual([{ bizCode: b.bizCode }]);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityCode, b.bizCode))
      .orderBy(asc(auditLog.id));
    expect(audits.map((x) => x.action)).toEqual(['create', 'setDefault']);

    // Saving the default with isDefault false keeps it the default (exactly one).
    const vb = await view(b.bizCode);
    await admin.ok(bankApi.save, {
      ...account({ ownerCode: owner, purpose: 'repay', accountNo: vb.accountNo }),
      bizCode: b.bizCode,
      version: vb.version,
      branchName: '改名网点',
    });
    expect((await view(b.bizCode)).isDefault).toBe(true);
    const stale = await admin.call(bankApi.save, {
      ...account({ ownerCode: owner, purpose: 'repay', accountNo: vb.accountNo }),
      bizCode: b.bizCode,
      version: vb.version,
    });
    expect([stale.httpStatus, stale.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);

    await admin.ok(bankApi.del, undefined, { query: { bizCode: b.bizCode } });
    expect(await defaults(owner, 'repay')).toEqual([{ bizCode: a.bizCode }]);
    expect((await admin.call(bankApi.view, undefined, { query: { bizCode: b.bizCode } })).httpStatus).toBe(
      404,
    );
    expect(
      (await admin.call(bankApi.setDefault, undefined, { query: { bizCode: b.bizCode } })).httpStatus,
    ).toBe(404);

    // Moving the default to another purpose leaves the old purpose with a default of its own.
    const va = await view(a.bizCode);
    await admin.ok(bankApi.save, {
      ...account({ ownerCode: owner, purpose: 'settle', accountNo: va.accountNo }),
      bizCode: a.bizCode,
      version: va.version,
    });
    expect(await defaults(owner, 'repay')).toEqual([{ bizCode: c.bizCode }]);
    expect(await defaults(owner, 'settle')).toEqual([{ bizCode: a.bizCode }]);
  });

  it('the database itself refuses a second default for one owner and purpose', async () => {
    const owner = await newCustomer('约束测试有限公司');
    await admin.ok(bankApi.save, account({ ownerCode: owner }));
    const { bizCode } = await admin.ok<{ bizCode: string }>(bankApi.save, account({ ownerCode: owner }));
    expect(
      await uniqueIndexBrokenBy(
        t.database.db.update(bankAccounts).set({ isDefault: true }).where(eq(bankAccounts.bizCode, bizCode)),
      ),
    ).toBe('bank_accounts_default_key');
  });

  it('our own accounts (本公司) have no customer; a customer with accounts cannot be deleted', async () => {
    const own = await admin.ok<{ bizCode: string }>(
      bankApi.save,
      account({ ownerType: 'self', ownerCode: undefined, accountName: '本公司' }),
    );
    expect(await view(own.bizCode)).toMatchObject({ ownerName: '本公司', ownerCode: null, isDefault: true });
    const del = await admin.call(`/api${COMPANY_PATHS.del}`, undefined, { query: { compCode: comp } });
    expect([del.httpStatus, del.msg]).toEqual([
      409,
      expect.stringMatching(/^该企业客户正在使用中，不能删除：存在\d+个银行账户$/),
    ]);
  });

  it.skipIf(!onPostgres)(
    'two concurrent setDefault calls leave exactly one default (PostgreSQL)',
    async () => {
      const owner = await newCustomer('并发默认测试有限公司');
      const codes: string[] = [];
      for (let i = 0; i < 6; i++)
        codes.push(
          (await admin.ok<{ bizCode: string }>(bankApi.save, account({ ownerCode: owner, purpose: 'pay' })))
            .bizCode,
        );
      const other = await t.login();
      for (let round = 0; round < 10; round++) {
        const x = codes[(round * 2 + 1) % codes.length]!;
        const y = codes[(round * 2 + 2) % codes.length]!;
        const [r1, r2] = await Promise.all([
          admin.call(bankApi.setDefault, undefined, { query: { bizCode: x } }),
          other.call(bankApi.setDefault, undefined, { query: { bizCode: y } }),
        ]);
        expect([r1.status, r2.status]).toEqual([200, 200]);
        const d = await defaults(owner, 'pay');
        expect(d).toHaveLength(1);
        expect([x, y]).toContain(d[0]!.bizCode);
      }
      const n = await t.database.db.execute(
        sql`select count(*)::int as n from bank_accounts where owner_code = ${owner} and is_default`,
      );
      expect((n as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);

      // 50 at once over the six accounts: every call answers 200 and one default remains.
      const calls = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? admin : other).call(bankApi.setDefault, undefined, {
            query: { bizCode: codes[i % codes.length]! },
          }),
        ),
      );
      expect(calls.filter((r) => r.status !== 200).map((r) => r.msg)).toEqual([]);
      expect(await defaults(owner, 'pay')).toHaveLength(1);
      console.info(`setDefault: ${calls.length} concurrent on one owner, 1 default after`);
    },
  );
});
