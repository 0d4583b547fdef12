import { sql } from 'drizzle-orm';
import { usccCheckChar } from '@portal/contract/uscc';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import type { Page } from '@portal/contract/api';
import {
  COMP_CHANGE_PATHS,
  COMP_MANAGER_PATHS,
  type CompanyHistoryItem,
  type CompUserOption,
} from '@portal/contract/crm-change';
import { nextCode } from '../../platform/db/codes';
import type { Db } from '../../platform/db/client';
import { servedPaths, type TestClient } from '../../testing/harness';

/** Test helpers of the crm-change module. */
export const compChangeApi = servedPaths(COMP_CHANGE_PATHS);
export const compManagerApi = servedPaths(COMP_MANAGER_PATHS);
export const companyApi = servedPaths(COMPANY_PATHS);
export const bq = (bizCode: string) => ({ query: { bizCode } });
export const cq = (compCode: string) => ({ query: { compCode } });

/** The customer's 企业变更历史, first page (newest first). */
export async function historyOf(client: TestClient, compCode: string, pageSize = 100) {
  return (
    await client.ok<Page<CompanyHistoryItem>>(compChangeApi.history, { compCode, pageNum: 1, pageSize })
  ).list;
}

/** The 新管理员 candidates of the customer, first page. */
export async function candidatesOf(client: TestClient, compCode: string, keyword?: string) {
  return client.ok<Page<CompUserOption>>(compManagerApi.users, {
    compCode,
    keyword,
    pageNum: 1,
    pageSize: 100,
  });
}

let seq = 0;
/** A fresh valid USCC each call. */
export function newUscc(): string {
  seq++;
  const first17 = `91310115MB${String(3_000_000 + seq).slice(-7)}`;
  return first17 + usccCheckChar(first17);
}

export const companyBody = (over: Partial<CompanyAdd> = {}): CompanyAdd => ({
  compName: '上海变更测试有限公司',
  usccCode: newUscc(),
  compType: 'private',
  roles: ['supplier'],
  legalPerson: '王五',
  regCapital: '10000000.00',
  establishDate: '2015-06-01',
  provinceCode: '310000',
  cityCode: '310100',
  areaCode: '310115',
  address: '浦东新区世纪大道1号',
  industry: 'F',
  contactName: '张三',
  contactPhone: '13800138000',
  ...over,
});

export async function addCompany(admin: TestClient, over: Partial<CompanyAdd> = {}): Promise<string> {
  return (await admin.ok<{ compCode: string }>(companyApi.add, companyBody(over))).compCode;
}

let mobileSeq = 0;
export const newMobile = () => `139${String(10_000_000 + ++mobileSeq).slice(-8)}`;

/**
 * An enterprise user straight into comp_users (the enterprise-user screens belong to the CRM
 * module; this module only reads and flips is_manager).
 */
export async function addCompUser(
  db: Db,
  compCode: string,
  userName: string,
  opts: {
    manager?: boolean;
    state?: 'enabled' | 'disabled';
    regState?: 'pending' | 'approved' | 'rejected';
  } = {},
): Promise<string> {
  const code = await nextCode(db, 'comp_user');
  await db.execute(sql`insert into comp_users (user_code, comp_code, user_name, mobile, is_manager, reg_state, state)
    values (${code}, ${compCode}, ${userName}, ${newMobile()}, ${opts.manager ?? false}, ${opts.regState ?? 'approved'}, ${opts.state ?? 'enabled'})`);
  return code;
}

/** A valid 18-digit resident id number (GB 11643) built from 17 digits. */
export function idCardNo(first17 = '31011519900307123'): string {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let s = 0;
  for (let i = 0; i < 17; i++) s += Number(first17[i]) * w[i]!;
  return first17 + '10X98765432'[s % 11]!;
}

/** Uploads a small PDF (授权委托书) and answers its fileToken. */
export async function uploadPdf(client: TestClient, name = '授权委托书.pdf'): Promise<string> {
  const boundary = '----crmchange' + Date.now();
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  const res = await client.portal.app.inject({
    method: 'POST',
    url: '/api/admin/portal/third/file/store',
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
  const body = res.json() as { data: { fileToken: string } };
  return body.data.fileToken;
}
