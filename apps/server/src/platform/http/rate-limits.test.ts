import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '@portal/contract/api';
import { AUTH_PATHS } from '@portal/contract/auth';
import { FILE_PATHS, type DownloadTokenResult, type FileInfo } from '@portal/contract/files';
import {
  createTestPortal,
  TEST_ADMIN_PASSWORD,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';

/**
 * A flood of anonymous calls from one address (SECURITY.md "Rate limits"): it uses up its address's
 * anonymous allowance and nothing else. Signed-in users' calls, downloads with a download token
 * included, count against the user; the sign-in page's calls have treatments of their own. The
 * limits are set small so a handful of calls reaches them.
 */
const LIMIT = 5;
const CAPTCHAS = 3;
const served = (p: string) => `${API_PREFIX}${p}`;

let t: TestPortal;
let admin: TestClient;
let pdf: FileInfo;
beforeAll(async () => {
  t = await createTestPortal({
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    RATE_LIMIT_PER_IP_PER_MINUTE: String(LIMIT + 3),
    CAPTCHA_RATE_PER_IP_PER_MINUTE: String(CAPTCHAS),
    LOGIN_RATE_PER_IP_PER_MINUTE: '3',
    TRUST_PROXY: 'true',
  });
  admin = await t.login();
  const boundary = 'rateLimitBoundary';
  const up = await t.portal.app.inject({
    method: 'POST',
    url: served(FILE_PATHS.upload),
    headers: {
      authorization: `Bearer ${admin.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="合同.pdf"\r\n\r\n`,
      ),
      Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  pdf = up.json<{ data: FileInfo }>().data;
});
afterAll(() => t.close());

const fileGet = (ip: string, path: string, query: Record<string, string>, token?: string) =>
  t.portal.app.inject({
    method: 'GET',
    url: `${served(path)}?${new URLSearchParams(query).toString()}`,
    headers: { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

/** Calls `call` three times the limit over, answering their statuses. */
async function repeat(call: () => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 3 * LIMIT; i++) statuses.push(await call());
  return statuses;
}

/**
 * Anonymous downloads and envelope keys from `ip`, well past the anonymous allowance; answers the
 * keys' statuses.
 */
async function flood(ip: string): Promise<number[]> {
  const anon = t.client();
  const downloads = await repeat(
    async () => (await fileGet(ip, FILE_PATHS.download, { fileToken: pdf.fileToken })).statusCode,
  );
  // The flood used up the address's anonymous allowance.
  expect(downloads).toEqual([...Array(LIMIT).fill(403), ...Array(2 * LIMIT).fill(429)]);
  return repeat(async () => (await anon.call(served(AUTH_PATHS.rsaKey), undefined, from(ip))).httpStatus);
}

const signIn = (ip: string) =>
  t
    .client()
    .call(
      served(AUTH_PATHS.login),
      { userName: 'admin', passWord: TEST_ADMIN_PASSWORD, userType: '2' },
      from(ip),
    );

describe('an anonymous flood from the address of signed-in users', () => {
  it('leaves their downloads and previews, by session or download token, and their calls answered', async () => {
    const ip = '203.0.113.10';
    await flood(ip);
    const preview = await fileGet(ip, FILE_PATHS.preview, { fileToken: pdf.fileToken }, admin.token);
    expect(preview.statusCode).toBe(200);
    const { downloadToken } = await admin.ok<DownloadTokenResult>(
      served(FILE_PATHS.downloadToken),
      { fileToken: pdf.fileToken },
      from(ip),
    );
    // A browser opens the download with the token alone, no session header.
    const download = await fileGet(ip, FILE_PATHS.download, { fileToken: pdf.fileToken, downloadToken });
    expect(download.statusCode).toBe(200);
    expect((await admin.call(served(AUTH_PATHS.userInfo), undefined, from(ip))).httpStatus).toBe(200);
  });

  it('leaves sign-in possible: the key, a captcha for who needs one, the login', async () => {
    const ip = '203.0.113.11';
    // The envelope key, one answer for everyone held in memory, is never refused.
    expect(new Set(await flood(ip))).toEqual(new Set([200]));
    const person = t.client();
    expect((await person.call(served(AUTH_PATHS.rsaKey), undefined, from(ip))).httpStatus).toBe(200);
    expect((await person.call(served(AUTH_PATHS.captcha), undefined, from(ip))).httpStatus).toBe(200);
    const login = await signIn(ip);
    expect([login.httpStatus, login.msg]).toEqual([200, '操作成功']);
  });

  it('counts captchas on their own: a flood of them leaves keys and logins alone', async () => {
    const ip = '203.0.113.12';
    const anon = t.client();
    const captchas = await repeat(
      async () => (await anon.call(served(AUTH_PATHS.captcha), undefined, from(ip))).httpStatus,
    );
    expect(captchas).toEqual([...Array(CAPTCHAS).fill(200), ...Array(3 * LIMIT - CAPTCHAS).fill(429)]);
    expect((await anon.call(served(AUTH_PATHS.rsaKey), undefined, from(ip))).httpStatus).toBe(200);
    expect((await signIn(ip)).httpStatus).toBe(200);
    // The anonymous allowance is untouched by the captchas too.
    expect((await fileGet(ip, FILE_PATHS.download, { fileToken: pdf.fileToken })).statusCode).toBe(403);
  });
});
