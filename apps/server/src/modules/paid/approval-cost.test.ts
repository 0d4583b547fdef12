import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ValidPlan } from '@portal/contract/accounts';
import { createTestPortal, onPostgres, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi } from './testkit';

/**
 * What one write-off of the load bench's scenario 5 costs the server (bench/README.md "Write-off
 * contention: eleventh pass"): the statements of its save and submit and of its approval, exact and
 * held here, and the server process's CPU a pair, printed (process.cpuUsage: on PostgreSQL the
 * server's alone, on PGlite the database's too). Calls go plaintext, one after another, so neither
 * the envelope nor contention is in the figure.
 */
let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
const ON = '2026-04-01';

beforeAll(async () => {
  t = await createTestPortal({ API_ENVELOPE: 'optional' });
  maker = await t.login();
  checker = await addChecker(t);
});
afterAll(() => t.close());

describe('the write-off save and approval, by statements and CPU', () => {
  it('saves and submits in 7 statements and approves in 8 (PostgreSQL; 6 and 7 on PGlite)', async () => {
    const f = await contractFixture(t, maker, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
    t.portal.clock.set('2026-01-15');
    const { bizCode: cont } = await approvedContract(t, maker, checker, { fixture: f });
    await disburse(maker, checker, cont);
    t.portal.clock.set(ON);
    const fiid = await approvedIncome(maker, checker, f.bankBizCode, '100000.00', '2026-03-31');
    const plan = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
      query: { contBizCode: cont, paidDate: ON },
    });
    const itemId = plan.items[0]!.itemId;
    const body = {
      fiidBizCode: fiid,
      contBizCode: cont,
      paidDate: ON,
      kind: 'manual',
      lines: [{ itemId, component: 'PRINCIPAL', amount: '1.00' }],
      submit: true,
    };
    const begin = vi.spyOn(t.database.inFlight, 'begin');
    const counted = async <T>(fn: () => Promise<T>) => {
      begin.mockClear();
      const out = await fn();
      if (process.env.APPROVAL_COST_TEXTS)
        for (const [i, [q]] of begin.mock.calls.entries())
          console.info(i, String(q).replace(/\s+/g, ' ').slice(0, 150));
      return { out, statements: begin.mock.calls.length };
    };
    const pair = async () => {
      const s0 = process.cpuUsage();
      const save = await counted(() =>
        maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, body, { plain: true }),
      );
      const s = process.cpuUsage(s0);
      const c0 = process.cpuUsage();
      const approval = await counted(() =>
        checker.ok(paidApi.audit, {}, { query: { paidBizCode: save.out.paidBizCode }, plain: true }),
      );
      const c = process.cpuUsage(c0);
      return {
        save: save.statements,
        approval: approval.statements,
        cpu: (c.user + c.system) / 1000,
        saveCpu: (s.user + s.system) / 1000,
      };
    };
    try {
      // The first calls fill the caches (sessions, named statements, the process's settings).
      for (let i = 0; i < 5; i++) await pair();
      const rounds = Number(process.env.APPROVAL_COST_ROUNDS ?? 20);
      const runs = [];
      const prof = process.env.APPROVAL_COST_PROFILE;
      const session = prof ? new (await import('node:inspector/promises')).Session() : undefined;
      if (session) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
      const all0 = process.cpuUsage();
      for (let i = 0; i < rounds; i++) runs.push(await pair());
      const all = process.cpuUsage(all0);
      if (session) {
        const { profile } = await session.post('Profiler.stop');
        (await import('node:fs')).writeFileSync(prof!, JSON.stringify(profile));
      }
      const approvalCpu = runs.map((r) => r.cpu).sort((a, b) => a - b);
      const saveCpu = runs.map((r) => r.saveCpu).sort((a, b) => a - b);
      console.info(
        `write-off cost (${onPostgres ? 'PostgreSQL' : 'PGlite'}, ${rounds} pairs): ` +
          `statements a save ${runs[0]!.save}, an approval ${runs[0]!.approval} ` +
          `(most ${Math.max(...runs.map((r) => r.save))} / ${Math.max(...runs.map((r) => r.approval))}); ` +
          `CPU ms an approval median ${approvalCpu[rounds >> 1]!.toFixed(2)}, ` +
          `a save median ${saveCpu[rounds >> 1]!.toFixed(2)}, ` +
          `a pair mean ${((all.user + all.system) / 1000 / rounds).toFixed(2)}`,
      );
      // node-postgres sends the transaction's begin and commit as statements; PGlite runs them itself.
      const own = onPostgres ? 1 : 0;
      // Most calls send exactly these; a call may send more that are not the route's own (a new
      // pooled connection's listen, the session's look-up past its cache on a starved machine).
      const mode = (xs: number[]) =>
        [...new Set(xs)].sort(
          (a, b) => xs.filter((x) => x === b).length - xs.filter((x) => x === a).length,
        )[0];
      const saves = runs.map((r) => r.save);
      const approvals = runs.map((r) => r.approval);
      expect({ save: mode(saves), approval: mode(approvals) }).toEqual({
        save: 6 + own,
        approval: 7 + own,
      });
      expect({ save: Math.min(...saves), approval: Math.min(...approvals) }).toEqual({
        save: 6 + own,
        approval: 7 + own,
      });
    } finally {
      begin.mockRestore();
    }
  });
});
