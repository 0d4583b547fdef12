import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { KYC_FILE_LABELS, KYC_FILES, NOT_ADMITTED } from '@portal/contract/admission';
import { COMPANY_PATHS, type CompanyAdd, type CompanyView } from '@portal/contract/company';
import { CREDIT_PATHS } from '@portal/contract/credit';
import { usccCheckChar } from '@portal/contract/uscc';
import { base, animationsDone, apiCall, launchBrowser, login, newPage, tokenOf } from './helpers';
import { approve, confirm, data, demoLogin, loginAs, openScreen, pick, today } from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = String(Date.now()).slice(-6);

async function addCompany(token: string, name: string, n: number): Promise<string> {
  const first17 = `91310115MD${String(Number(stamp) * 10 + n)
    .padStart(7, '0')
    .slice(-7)}`;
  const body: CompanyAdd = {
    compName: name,
    usccCode: first17 + usccCheckChar(first17),
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '准入法人',
    regCapital: '10000000.00',
    provinceCode: '310000',
    cityCode: '310100',
    areaCode: '310115',
  };
  return (await data<{ compCode: string }>(COMPANY_PATHS.add, token, body)).compCode;
}

function platformCredit(custCode: string) {
  const start = today();
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  return {
    custCode,
    limitAmount: '1000000.00',
    currency: 'CNY',
    startDate: start,
    endDate: `${y + 1}-${String(m).padStart(2, '0')}-${String(Math.min(d, 28)).padStart(2, '0')}`,
    cycle: 'cyclical',
    product: 'factoring',
  };
}

/** The envelope's status and message of a call (refusals included). */
async function call(path: string, token: string, body: unknown): Promise<{ status: number; msg: string }> {
  const r = await apiCall(base, path, token, body);
  return r.json as { status: number; msg: string };
}

const pdf = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
});

describe('客户准入 screens', () => {
  it('业务部 enters a customer and submits its 准入 with KYC files, 风控 approves, then a credit can be saved', async () => {
    const admin = await newPage(browser);
    await login(admin.page, base, password);
    const adminToken = (await tokenOf(admin.context))!;
    const makerPwd = await demoLogin(adminToken, 'maker');
    const checkerPwd = await demoLogin(adminToken, 'checker');
    await admin.context.close();

    const maker = await newPage(browser);
    await loginAs(maker.page, 'maker', makerPwd);
    const token = (await tokenOf(maker.context))!;
    const checker = await newPage(browser);
    await loginAs(checker.page, 'checker', checkerPwd);
    const page = maker.page;
    try {
      // The business side enters the customer and its account (业务经理 holds both buttons).
      const compName = `准入客户${stamp}有限公司`;
      const compCode = await addCompany(token, compName, 1);
      await data('/ft/api/bank/save', token, {
        ownerType: 'customer',
        ownerCode: compCode,
        bankCode: '102',
        branchName: '上海分行营业部',
        accountName: compName,
        accountNo: `62220210${stamp}001`,
        purpose: 'collect',
      });
      // Not admitted yet: a credit is refused, naming the customer.
      const refused = await call(CREDIT_PATHS.saveCreditPlatform, token, platformCredit(compCode));
      expect([refused.status, refused.msg]).toEqual([409, NOT_ADMITTED('客户', compName)]);

      expect((await data<CompanyView>(COMPANY_PATHS.view, token, undefined, { compCode })).admission).toBe(
        'pending',
      );

      // 客户准入 → 新增准入: the customer, the KYC fields and the four files.
      const list = await openScreen(page, `${base}/factoring/config/admission`, 'admission-list');
      await list.getByRole('button', { name: '新增准入' }).click();
      const editor = page.getByTestId('admission-editor');
      await editor.waitFor();
      await editor.getByLabel('企业客户').fill(compName);
      await pick(page, compName);
      await editor.getByLabel('法定代表人身份证号').fill('11010519491231002X');
      await editor.getByLabel('实际控制人/受益所有人').fill('准入法人（持股80%）');
      await editor.getByLabel('银行账户').click();
      const account = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
      await expect.poll(() => account.textContent(), { timeout: 10_000 }).toContain(compName);
      await animationsDone(page);
      await account.click();
      const inputs = editor.locator('[data-testid="file-list"] input[type="file"]');
      await expect.poll(() => inputs.count()).toBe(KYC_FILES.length);
      for (const [i, f] of KYC_FILES.entries())
        await inputs.nth(i).setInputFiles(pdf(`${KYC_FILE_LABELS[f]}.pdf`));
      await expect
        .poll(() => editor.getByTestId('file-item').count(), { timeout: 20_000 })
        .toBe(KYC_FILES.length);
      await editor.getByRole('button', { name: '保存并提交' }).click();
      await confirm(page);
      await page.waitForURL(/admission-view\?bizCode=\d{12}/, { timeout: 30_000 });
      const bizCode = new URL(page.url()).searchParams.get('bizCode')!;
      const view = page.getByTestId('admission-view');
      await expect.poll(() => view.textContent(), { timeout: 10_000 }).toContain('审核中');
      expect(await view.textContent()).toContain('营业执照.pdf');

      // The maker cannot approve their own (no 审核 button); 风控 approves it.
      await approve(checker.page, '/factoring/config/admission-view', bizCode, 'admission-view');
      const admitted = await data<CompanyView>(COMPANY_PATHS.view, token, undefined, { compCode });
      expect(admitted).toMatchObject({ admission: 'admitted', admissionCode: bizCode });

      // Now a credit for it can be saved.
      const saved = await call(CREDIT_PATHS.saveCreditPlatform, token, platformCredit(compCode));
      expect([saved.status, saved.msg]).toEqual([200, '操作成功']);

      // The demo office shows one customer admitted through 客户准入 and one pending.
      const again = await openScreen(page, `${base}/factoring/config/admission`, 'admission-list');
      await expect.poll(() => again.textContent(), { timeout: 10_000 }).toContain('苏州新锐智能装备有限公司');
      expect(await again.textContent()).toContain('合肥未来新能源科技有限公司');
      const pending = await data<CompanyView>(COMPANY_PATHS.view, token, undefined, {
        compCode: (
          await data<{ list: { compCode: string; compName: string }[] }>(COMPANY_PATHS.list, token, {
            compName: '合肥未来新能源科技有限公司',
            pageNum: 1,
            pageSize: 10,
          })
        ).list[0]!.compCode,
      });
      expect(pending.admission).toBe('pending');
    } finally {
      await maker.context.close();
      await checker.context.close();
    }
  }, 480_000);
});
