import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { ASSIGN_NOTICE_PATHS, type NoticeList } from '@portal/contract/assignment';
import type { ContractListRow } from '@portal/contract/contract';
import { FILE_PATHS, type FileInfo } from '@portal/contract/files';
import { PRINT_PATHS } from '@portal/contract/print';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  approvedContract,
  contractApi,
  contractFixture,
  receivable,
  type ContractFixture,
} from '../contract/testkit';
import { disburse, loanApi, loanBody, lq } from '../loan/testkit';

const api = servedPaths(ASSIGN_NOTICE_PATHS);
const fileApi = servedPaths(FILE_PATHS);
const printApi = servedPaths(PRINT_PATHS);
const cq = (contBizCode: string) => ({ query: { contBizCode } });

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '9000000.00' });
}, 120_000);
afterAll(() => t.close());

async function uploadFile(client: TestClient, name: string): Promise<string> {
  const boundary = '----n' + Date.now();
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  const res = await client.portal.app.inject({
    method: 'POST',
    url: fileApi.upload,
    headers: {
      authorization: `Bearer ${client.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  const body = res.json() as { status: number; msg: string; data: { fileToken: string } };
  if (body.status !== 200) throw new Error(body.msg);
  return body.data.fileToken;
}

/** An approved disclosed contract whose receivables name the given debtors. */
async function disclosed(...debtors: string[]): Promise<string> {
  const { bizCode } = await approvedContract(t, maker, checker, {
    fixture: f,
    over: {
      disclosure: 'disclosed',
      receivables: debtors.map((d) => ({ ...receivable('150000.00'), debtorName: d })),
    },
  });
  return bizCode;
}

const notices = (contBizCode: string, client = maker) =>
  client.ok<NoticeList>(api.list, undefined, cq(contBizCode));
const noticeOf = async (contBizCode: string, debtor: string) =>
  (await notices(contBizCode)).notices.find((n) => n.debtorName === debtor)!;

async function confirm(contBizCode: string, debtor: string, client = maker): Promise<void> {
  const n = await noticeOf(contBizCode, debtor);
  await client.ok(api.confirm, {
    noticeBizCode: n.noticeBizCode,
    confirmDate: '2026-01-14',
    confirmedBy: `${debtor} 财务部 陈经理`,
    fileTokens: [await uploadFile(client, '转让通知书回执.pdf')],
  });
}

async function listState(contBizCode: string): Promise<ContractListRow['noticeState']> {
  const page = await maker.ok<Page<ContractListRow>>(contractApi.list, {
    pageNum: 1,
    pageSize: 10,
    bizCode: contBizCode,
  });
  return page.list[0]!.noticeState;
}

async function loanState(contBizCode: string): Promise<string> {
  const [r] = await queryRows<{ s: string }>(
    db(),
    sql`select loan_state as s from contracts where biz_code = ${contBizCode}`,
  );
  return r!.s;
}

describe('转让通知: 明保理 waits for every debtor, 暗保理 needs none', () => {
  it('an undisclosed contract needs no notice: the list says so and it disburses', async () => {
    const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
    const list = await notices(bizCode);
    expect(list).toMatchObject({ disclosed: false, state: 'none' });
    expect(await listState(bizCode)).toBe('none');
    const res = await maker.call(api.confirm, {
      noticeBizCode: list.notices[0]!.noticeBizCode,
      confirmDate: '2026-01-14',
      confirmedBy: '陈经理',
      fileTokens: [await uploadFile(maker, '回执.pdf')],
    });
    expect([res.status, res.msg]).toEqual([409, '暗保理合同无需应收账款转让通知']);
    await disburse(maker, checker, bizCode);
    expect(await loanState(bizCode)).toBe('loaned');
  });

  it('refuses the 放款单 naming the debtors not confirmed; confirmation and a checker’s waiver let it go out', async () => {
    const bizCode = await disclosed('甲债务人有限公司', '乙债务人有限公司');
    const list = await notices(bizCode);
    expect(list.state).toBe('pending');
    expect(list.notices.map((n) => [n.debtorName, n.status, n.amount])).toEqual(
      [
        ['乙债务人有限公司', 'pending', '150000.00'],
        ['甲债务人有限公司', 'pending', '150000.00'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!, 'zh-CN')),
    );
    expect(await listState(bizCode)).toBe('pending');

    // A draft may be saved; its submission is refused with the debtors named.
    const draft = await maker.ok<{ loanBizCode: string }>(
      loanApi.saveBaseInfo,
      await loanBody(maker, bizCode),
    );
    const refused = await maker.call(loanApi.saveBaseInfo, {
      ...(await loanBody(maker, bizCode)),
      submit: true,
    });
    expect(refused.status).toBe(409);
    expect(refused.msg).toContain('甲债务人有限公司');
    expect(refused.msg).toContain('乙债务人有限公司');
    expect(refused.msg).toMatch(/^明保理合同的债务人尚未确认应收账款转让通知/);

    // 确认: date, who, the signed copy; each refused when missing or wrong.
    const jia = await noticeOf(bizCode, '甲债务人有限公司');
    const bad = async (body: object) =>
      maker.call(api.confirm, { noticeBizCode: jia.noticeBizCode, ...body });
    const file = await uploadFile(maker, '回执.pdf');
    expect((await bad({ confirmDate: '2026-01-14', confirmedBy: '陈经理', fileTokens: [] })).msg).toBe(
      '确认文件不能为空：请上传债务人签章的转让通知书回执',
    );
    expect((await bad({ confirmDate: '2026-02-01', confirmedBy: '陈经理', fileTokens: [file] })).msg).toBe(
      '确认日期不能晚于营业日 2026-01-15',
    );
    const noWho = await bad({ confirmDate: '2026-01-14', fileTokens: [file] });
    expect(noWho.status).toBe(400);
    expect(noWho.msg).toContain('确认人');
    await confirm(bizCode, '甲债务人有限公司');
    const again = await bad({ confirmDate: '2026-01-14', confirmedBy: '陈经理', fileTokens: [file] });
    expect([again.status, again.msg]).toEqual([409, '债务人「甲债务人有限公司」的转让通知已确认，请先撤销']);
    const confirmed = await noticeOf(bizCode, '甲债务人有限公司');
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      confirmDate: '2026-01-14',
      confirmedBy: '甲债务人有限公司 财务部 陈经理',
    });
    expect(confirmed.files.map((x) => x.originFileName)).toEqual(['转让通知书回执.pdf']);

    const still = await maker.call(loanApi.saveBaseInfo, {
      ...(await loanBody(maker, bizCode)),
      submit: true,
    });
    expect([still.status, still.msg]).toEqual([
      409,
      '明保理合同的债务人尚未确认应收账款转让通知：乙债务人有限公司；请先登记债务人确认，或由复核人豁免',
    ]);

    // 豁免 is a checker's act: the contract's maker is refused, a reason is required.
    const yi = await noticeOf(bizCode, '乙债务人有限公司');
    const byMaker = await maker.call(api.waive, {
      noticeBizCode: yi.noticeBizCode,
      reason: '债务人拒绝签收',
    });
    expect([byMaker.status, byMaker.msg]).toEqual([401, '豁免须由复核人办理，合同经办人不能豁免']);
    const noReason = await checker.call(api.waive, { noticeBizCode: yi.noticeBizCode });
    expect(noReason.status).toBe(400);
    expect(noReason.msg).toContain('豁免原因');
    await checker.ok(api.waive, {
      noticeBizCode: yi.noticeBizCode,
      reason: '核心企业集团统一付款，已电话确认',
    });
    expect(await noticeOf(bizCode, '乙债务人有限公司')).toMatchObject({
      status: 'waived',
      waiveReason: '核心企业集团统一付款，已电话确认',
      waivedByName: '复核员',
    });
    expect(await listState(bizCode)).toBe('confirmed');

    // Now the draft is submitted and approved.
    const body = await loanBody(maker, bizCode);
    const view = await maker.ok<{ version: number }>(loanApi.viewBaseInfo, undefined, lq(draft.loanBizCode));
    await maker.ok(loanApi.saveBaseInfo, {
      ...body,
      loanBizCode: draft.loanBizCode,
      version: view.version,
      submit: true,
    });
    await checker.ok(loanApi.audit, {}, lq(draft.loanBizCode));
    expect(await loanState(bizCode)).toBe('loaned');

    // Once disbursed, neither the confirmation nor the waiver can be withdrawn.
    const late = await maker.call(api.withdraw, { noticeBizCode: jia.noticeBizCode, reason: '误登记' });
    expect([late.status, late.msg]).toEqual([409, '合同已放款，不能撤销转让通知的确认或豁免']);
    const audit = await queryRows<{ action: string }>(
      db(),
      sql`select action from audit_log where entity = 'assignNotice' and entity_code in (${jia.noticeBizCode}, ${yi.noticeBizCode}) order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['attachFiles', 'noticeConfirm', 'noticeWaive']);
  });

  it('the approval asks again: a confirmation withdrawn after submission stops it', async () => {
    const bizCode = await disclosed('丙债务人有限公司');
    await confirm(bizCode, '丙债务人有限公司');
    const saved = await maker.ok<{ loanBizCode: string }>(loanApi.saveBaseInfo, {
      ...(await loanBody(maker, bizCode)),
      submit: true,
    });
    const n = await noticeOf(bizCode, '丙债务人有限公司');
    await maker.ok(api.withdraw, { noticeBizCode: n.noticeBizCode, reason: '回执盖章不清晰' });
    const after = await noticeOf(bizCode, '丙债务人有限公司');
    expect(after).toMatchObject({ status: 'pending', confirmDate: null, files: [] });
    const res = await checker.call(loanApi.audit, {}, lq(saved.loanBizCode));
    expect([res.status, res.msg]).toEqual([
      409,
      '明保理合同的债务人尚未确认应收账款转让通知：丙债务人有限公司；请先登记债务人确认，或由复核人豁免',
    ]);
    expect(await loanState(bizCode)).toBe('none');
    // The database holds the rule too: no write makes the contract 已放款 with a debtor pending.
    const err = await db()
      .execute(sql`update contracts set loan_state = 'loaned' where biz_code = ${bizCode}`)
      .then(
        () => null,
        (e: unknown) => e as Error & { cause?: Error },
      );
    expect(String(err?.cause?.message ?? err?.message)).toContain('丙债务人有限公司');
  });

  it('the waiver has its own button, and its maker is never the 放款单’s maker', async () => {
    const bizCode = await disclosed('丁债务人有限公司');
    const n = await noticeOf(bizCode, '丁债务人有限公司');
    await createUserWithCodes(db(), 'notice-clerk', 'Clerk@123456789', [
      'ft-contract',
      'ft-contract-info',
      'ft-contract-info:noticeConfirm',
    ]);
    const clerk = await t.login('notice-clerk', 'Clerk@123456789');
    const noButton = await clerk.call(api.waive, { noticeBizCode: n.noticeBizCode, reason: '无' });
    expect(noButton.status).toBe(401);
    // A 放款单 made by the checker on this contract: the checker then may not waive it.
    const other = await addChecker(t, 'checker2');
    await other.ok(loanApi.saveBaseInfo, await loanBody(other, bizCode));
    const res = await other.call(api.waive, { noticeBizCode: n.noticeBizCode, reason: '电话确认' });
    expect(res.status).toBe(401);
    expect(res.msg).toMatch(/^豁免须由复核人办理，放款单 \d{12} 的经办人不能豁免$/);
    await checker.ok(api.waive, { noticeBizCode: n.noticeBizCode, reason: '电话确认' });
    // Withdrawing a waiver is the waiver's button: the clerk (confirm only) may not.
    const clerkWithdraw = await clerk.call(api.withdraw, { noticeBizCode: n.noticeBizCode, reason: '撤销' });
    expect(clerkWithdraw.status).toBe(401);
    await checker.ok(api.withdraw, { noticeBizCode: n.noticeBizCode, reason: '撤销豁免' });
    expect((await noticeOf(bizCode, '丁债务人有限公司')).status).toBe('pending');
  });

  it('row scope follows the contract; the signed copy and the print follow the notice', async () => {
    const bizCode = await disclosed('戊债务人有限公司');
    await confirm(bizCode, '戊债务人有限公司');
    const n = await noticeOf(bizCode, '戊债务人有限公司');
    const page = await maker.call(printApi.perViewHtml, {
      bizType: 'assignNotice',
      docCode: n.noticeBizCode,
    });
    const html = page.raw.toString('utf8');
    expect(html).toContain('<h1>应收账款转让通知书</h1>');
    expect(html).toContain('戊债务人有限公司：');
    expect(html).toContain('150,000.00');
    expect(html).toContain('签字：');
    const files = await maker.ok<FileInfo[]>(fileApi.list, {
      docType: 'assignNotice',
      docCode: n.noticeBizCode,
    });
    expect(files).toHaveLength(1);

    // Someone who sees only their own contracts sees none of this one.
    await createUserWithCodes(
      db(),
      'notice-self',
      'Self@123456789',
      [
        'ft-contract',
        'ft-contract-info',
        'ft-contract-info:noticeConfirm',
        'ft-contract-info:noticeWaive',
        'ft-contract-info:print',
      ],
      { dataScope: 'self' },
    );
    const self = await t.login('notice-self', 'Self@123456789');
    const listed = await self.call(api.list, undefined, cq(bizCode));
    expect([listed.status, listed.msg]).toEqual([404, '合同不存在']);
    const waived = await self.call(api.waive, { noticeBizCode: n.noticeBizCode, reason: '越权' });
    expect([waived.status, waived.msg]).toEqual([404, '转让通知不存在']);
    const theirFiles = await self.call(fileApi.list, { docType: 'assignNotice', docCode: n.noticeBizCode });
    expect(theirFiles.status).toBe(404);
    const theirPrint = await self.call(printApi.perViewHtml, {
      bizType: 'assignNotice',
      docCode: n.noticeBizCode,
    });
    expect(theirPrint.status).toBe(404);
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', () => {
  /** Whether the invariant holds: not disbursed, or every debtor confirmed or waived. */
  async function invariant(bizCode: string): Promise<boolean> {
    const [r] = await queryRows<{ ok: boolean }>(
      db(),
      sql`select c.loan_state <> 'loaned' or not exists (
                 select 1 from contract_receivables r
                  where r.contract_id = c.id and r.live and not exists (
                    select 1 from assignment_notices n where n.contract_id = c.id and n.debtor_name = r.debtor_name
                       and (n.confirm_date is not null or n.waived_at is not null))) as ok
            from contracts c where c.biz_code = ${bizCode}`,
    );
    return r!.ok;
  }

  it(
    'a 放款单 approval racing a confirmation withdrawal or a waiver withdrawal: never disbursed with a debtor pending',
    { timeout: 600_000 },
    async () => {
      const outcomes: string[] = [];
      for (const [i, kind] of (['confirm', 'waive', 'confirm', 'waive'] as const).entries()) {
        const debtor = `并发债务人${i}有限公司`;
        const bizCode = await disclosed(debtor);
        const n = await noticeOf(bizCode, debtor);
        if (kind === 'confirm') await confirm(bizCode, debtor);
        else await checker.ok(api.waive, { noticeBizCode: n.noticeBizCode, reason: '电话确认' });
        const saved = await maker.ok<{ loanBizCode: string }>(loanApi.saveBaseInfo, {
          ...(await loanBody(maker, bizCode)),
          submit: true,
        });
        const withdrawer = kind === 'confirm' ? maker : checker;
        const approver = await addChecker(t, `racer${i}`);
        const [approved, withdrawn] = await Promise.all([
          approver.call(loanApi.audit, {}, lq(saved.loanBizCode)),
          withdrawer.call(api.withdraw, { noticeBizCode: n.noticeBizCode, reason: '并发撤销' }),
        ]);
        // Exactly one wins; the other is refused with its reason.
        expect([approved.status, withdrawn.status].sort()).toEqual([200, 409]);
        if (approved.status === 200) expect(withdrawn.msg).toBe('合同已放款，不能撤销转让通知的确认或豁免');
        else expect(approved.msg).toContain(debtor);
        expect(await invariant(bizCode)).toBe(true);
        outcomes.push(approved.status === 200 ? 'approved' : 'withdrawn');
      }
      expect(outcomes).toHaveLength(4);
    },
  );
});
