import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import type { Page } from '@portal/contract/api';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  served,
} from '../../testing/harness';
import type { PortalModule } from '../../platform/module';
import { RULE_USAGE } from './service';

let t: TestPortal;
let admin: TestClient;
/** The rule a sample module says is in use (as contracts would). */
let inUse: string | undefined;
const usesARule: PortalModule = {
  name: 'uses-a-rule',
  register({ registries }) {
    registries
      .get(RULE_USAGE)
      .add(async (_ex, code) => (code === inUse ? '合同 000000000001 使用该规则' : null));
  },
};

const rule = {
  name: '测试规则 8.5%',
  annualRate: '0.0850',
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'BACK',
  feeRate: '0.005',
  feeCollection: 'FRONT',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 3,
};

async function userWith(name: string, codes: string[]): Promise<TestClient> {
  await createUserWithCodes(t.database.db, name, 'Tester@1234567', codes);
  return t.login(name, 'Tester@1234567');
}

beforeAll(async () => {
  t = await createTestPortal({}, [usesARule]);
  admin = await t.login();
});
afterAll(() => t.close());

describe('interest rules (/ft/api/businessCfg/ruler)', () => {
  it('saves, views with defaults applied, lists with filters and answers the dict', async () => {
    const { bizCode } = await admin.ok<{ bizCode: string }>(served(RULER_PATHS.save), rule);
    expect(bizCode).toMatch(/^\d{12}$/);
    const view = await admin.ok<RuleView>(served(RULER_PATHS.view), undefined, { query: { bizCode } });
    expect(view).toMatchObject({
      ...rule,
      bizCode,
      version: 0,
      state: 'enabled',
      countBothEnds: false,
      contBizCode: null,
    });
    expect(view.allocationOrder).toEqual(['PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL']);
    // docs/protocol.md "Values on the wire": timestamps are ISO-8601 with offset.
    expect(view.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    await admin.ok(served(RULER_PATHS.save), {
      ...rule,
      name: '等额本金 6%',
      method: 'EQUAL_PRINCIPAL',
      annualRate: '0.06',
      state: 'disabled',
    });
    const all = await admin.ok<Page<RuleView>>(served(RULER_PATHS.list), { pageNum: 1, pageSize: 10 });
    expect(all.total).toBe(2);
    const filtered = await admin.ok<Page<RuleView>>(served(RULER_PATHS.list), {
      name: '等额',
      method: 'EQUAL_PRINCIPAL',
      orderBy: 'annualRate',
      order: 'desc',
    });
    expect(filtered.list.map((r) => r.name)).toEqual(['等额本金 6%']);
    const dict = await admin.ok<{ code: string; label: string }[]>(served(RULER_PATHS.dict));
    expect(dict).toEqual([{ code: bizCode, label: rule.name }]);
  });

  it('refuses bad input with the field named, and an allocation order that is not a permutation', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...rule, name: '' }, '规则名称不能为空'],
      [{ ...rule, annualRate: '-0.01' }, '年利率必须是不超过8位小数的非负小数'],
      [{ ...rule, annualRate: '12' }, '年利率不能大于10'],
      [{ ...rule, method: 'WEEKLY' }, '还款方式取值不正确'],
      [{ ...rule, graceDays: 400 }, '宽限期天数不能大于365'],
      [
        { ...rule, allocationOrder: ['PENALTY', 'PENALTY', 'FEE', 'PRINCIPAL'] },
        '还款分配顺序必须包含罚息、利息、费用、本金各一次',
      ],
    ];
    for (const [body, msg] of cases) {
      const r = await admin.call(served(RULER_PATHS.save), body);
      expect([r.httpStatus, r.msg]).toEqual([400, msg]);
    }
  });

  it('updates with the version read; a stale version answers 409 and changes nothing', async () => {
    const { bizCode } = await admin.ok<{ bizCode: string }>(served(RULER_PATHS.save), {
      ...rule,
      name: '改前',
    });
    expect(
      (
        await admin.call(served(RULER_PATHS.save), {
          ...rule,
          bizCode,
          version: 0,
          name: '改后',
          allocationOrder: ['INTEREST', 'PENALTY', 'FEE', 'PRINCIPAL'],
        })
      ).status,
    ).toBe(200);
    const stale = await admin.call(served(RULER_PATHS.save), { ...rule, bizCode, version: 0, name: '再改' });
    expect(stale.status).toBe(409);
    const view = await admin.ok<RuleView>(served(RULER_PATHS.view), undefined, { query: { bizCode } });
    expect([view.name, view.version, view.allocationOrder[0]]).toEqual(['改后', 1, 'INTEREST']);
  });

  it('deletes an unused rule; a rule in use answers 409 and stays', async () => {
    const used = await admin.ok<{ bizCode: string }>(served(RULER_PATHS.save), { ...rule, name: '在用规则' });
    const unused = await admin.ok<{ bizCode: string }>(served(RULER_PATHS.save), {
      ...rule,
      name: '闲置规则',
    });
    inUse = used.bizCode;
    const refused = await admin.call(served(RULER_PATHS.del), undefined, {
      query: { bizCode: used.bizCode },
    });
    expect([refused.status, refused.msg]).toEqual([
      409,
      '计息规则正在使用中，不能删除：合同 000000000001 使用该规则',
    ]);
    expect(
      (await admin.call(served(RULER_PATHS.view), undefined, { query: { bizCode: used.bizCode } })).status,
    ).toBe(200);
    expect(
      (await admin.call(served(RULER_PATHS.del), undefined, { query: { bizCode: unused.bizCode } })).status,
    ).toBe(200);
    expect(
      (await admin.call(served(RULER_PATHS.view), undefined, { query: { bizCode: unused.bizCode } })).status,
    ).toBe(404);
    expect(
      (await admin.call(served(RULER_PATHS.del), undefined, { query: { bizCode: unused.bizCode } })).status,
    ).toBe(404);
  });

  it('keeps one business config per contract, viewed by contBizCode, out of the catalogue', async () => {
    const contBizCode = '000000000042';
    const { bizCode } = await admin.ok<{ bizCode: string }>(served(RULER_PATHS.save), {
      ...rule,
      name: '合同业务配置',
      contBizCode,
    });
    expect(
      (await admin.call(served(RULER_PATHS.save), { ...rule, name: '第二份', contBizCode })).status,
    ).toBe(409);
    const view = await admin.ok<RuleView>(served(RULER_PATHS.view), undefined, { query: { contBizCode } });
    expect(view.bizCode).toBe(bizCode);
    const catalogue = await admin.ok<Page<RuleView>>(served(RULER_PATHS.list), {});
    expect(catalogue.list.some((r) => r.bizCode === bizCode)).toBe(false);
    const mismatch = await admin.call(served(RULER_PATHS.save), { ...rule, bizCode, version: 0, name: 'x' });
    expect(mismatch.status).toBe(400);
  });

  it('separates catalogue rules (rule buttons) from a contract config (contract buttons)', async () => {
    const ruleClerk = await userWith('rule-clerk', ['ft-ruler', 'ft-ruler:add']);
    const contractClerk = await userWith('contract-clerk', ['ft-contract-info', 'ft-contract-info:save']);
    expect((await ruleClerk.call(served(RULER_PATHS.save), { ...rule, name: '规则员新增' })).status).toBe(
      200,
    );
    expect(
      (await ruleClerk.call(served(RULER_PATHS.save), { ...rule, name: 'x', contBizCode: '000000000077' }))
        .status,
    ).toBe(401);
    expect((await contractClerk.call(served(RULER_PATHS.save), { ...rule, name: 'y' })).status).toBe(401);
    expect(
      (
        await contractClerk.call(served(RULER_PATHS.save), {
          ...rule,
          name: '合同员配置',
          contBizCode: '000000000077',
        })
      ).status,
    ).toBe(200);
    expect(
      (await ruleClerk.call(served(RULER_PATHS.del), undefined, { query: { bizCode: '000000000001' } }))
        .status,
    ).toBe(401);
  });
});
