import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { BIZDATE_PATHS, type DayEndRun } from '@portal/contract/bizdate';
import { MESSAGE_PATHS, type MessageView } from '@portal/contract/messages';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE } from '../contract/testkit';
import { disburse } from '../loan/testkit';

/**
 * The day-end's reminders reach the bell (docs/operations.md "Messages"): each of the contract's
 * owners (its maker and its 业务经理) gets one 已逾期 / 即将到期 message per item, nobody else does,
 * and a second run of the same day adds none.
 */
const bizdateApi = servedPaths(BIZDATE_PATHS);
const messageApi = servedPaths(MESSAGE_PATHS);
const PW = 'Remind@123456789';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let manager: TestClient;
let bystander: TestClient;
let managerId: number;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  checker = await addChecker(t);
  managerId = (await createUserWithCodes(t.database.db, 'remind-manager', PW, [])).userId;
  await createUserWithCodes(t.database.db, 'remind-bystander', PW, []);
  manager = await t.login('remind-manager', PW);
  bystander = await t.login('remind-bystander', PW);
});
afterAll(() => t.close());

const reminderMessages = async (c: TestClient) =>
  (await c.ok<Page<MessageView>>(messageApi.list, { pageSize: 100 })).list
    .filter((m) => m.kind === 'dueSoon' || m.kind === 'overdue')
    .map((m) => [m.kind, m.kindLabel, m.docType, m.docCode, m.detail])
    .sort();

describe('日终提醒 → 消息中心', () => {
  it('tells the contract’s maker and manager of due-soon and overdue items, once, and no one else', async () => {
    expect((await admin.call(bizdateApi.save, { businessDate: '2026-01-25' })).status).toBe(200);
    const fixture = await contractFixture(t, admin, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture,
      // Signed to start on the value date: the plan keeps the signed due dates (the 20th).
      over: { startDate: '2026-01-20', maturityDate: '2026-07-20', managerId },
    });
    await disburse(admin, checker, bizCode, { valueDate: '2026-01-20' });
    expect(await reminderMessages(manager)).toEqual([]);

    // 2026-03-15: the move runs every day's day-end (docs/business-date.md "Catching up"): item 1
    // (due 02-20) came due soon on 02-13 and is overdue since 02-21; item 2 (due 03-20) came due soon
    // on 03-13.
    const moved = await admin.call<{ run: DayEndRun }>(bizdateApi.save, { businessDate: '2026-03-15' });
    expect(moved.status).toBe(200);
    expect(moved.data!.run.remindersAdded).toBe(0);
    const expected = [
      ['dueSoon', '即将到期', 'contract', bizCode, '第1期，还款日 2026-02-20'],
      ['dueSoon', '即将到期', 'contract', bizCode, '第2期，还款日 2026-03-20'],
      ['overdue', '已逾期', 'contract', bizCode, '第1期，还款日 2026-02-20'],
    ];
    expect(await reminderMessages(admin)).toEqual(expected);
    expect(await reminderMessages(manager)).toEqual(expected);
    expect(await reminderMessages(bystander)).toEqual([]);
    expect(await reminderMessages(checker)).toEqual([]);
    const unread = (await manager.ok<Page<MessageView>>(messageApi.list, { unreadOnly: true })).list;
    // The 待办 reminders' messages; the same day-ends also send 催收提醒 (docs/collections.md).
    const dueOrOverdue = (m: MessageView) => m.kind === 'dueSoon' || m.kind === 'overdue';
    expect(unread.filter((m) => m.docCode === bizCode && dueOrOverdue(m))).toHaveLength(3);

    // The same day again: no reminder and no message added.
    const again = await admin.ok<DayEndRun>(bizdateApi.runDayEnd);
    expect(again).toMatchObject({ state: 'done', remindersAdded: 0 });
    expect(await reminderMessages(admin)).toEqual(expected);
    expect(await reminderMessages(manager)).toEqual(expected);
  });
});
