import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClientKey,
  ENVELOPE_HEADERS as H,
  fromBase64,
  importRsaPublicKey,
  KEY_REUSE_MS,
  sealRequest,
  sign,
  signingString,
  toBase64,
} from '@portal/contract/envelope';
import { Keyring } from './keyring';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { API_PREFIX } from '@portal/contract/api';
import { FILE_PATHS } from '@portal/contract/files';

const INFO = '/api/admin/portal/user/info';
const BUTTONS = '/api/admin/portal/user/res/menu/btns';

let t: TestPortal;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(() => t.close());

async function sealed(path: string, body: unknown, signPath = path, now = Date.now()) {
  const key = await admin.envelopeKey();
  const s = await sealRequest(key, 'POST', signPath, body, now);
  const headers: Record<string, string> = { ...s.headers, authorization: `Bearer ${admin.token}` };
  return { headers, payload: s.body };
}

async function inject(path: string, headers: Record<string, string>, payload?: string) {
  const res = await t.portal.app.inject({
    method: 'POST',
    url: path,
    headers,
    ...(payload ? { payload } : {}),
  });
  return { http: res.statusCode, body: res.json() as { status: number; msg: string; data?: unknown } };
}

describe('request envelope (docs/protocol.md "The envelope")', () => {
  it('round-trips a sealed body through validation to the handler', async () => {
    const s = await sealed(BUTTONS, { menuCode: 'ft-bank' });
    const r = await inject(BUTTONS, s.headers, s.payload);
    expect(r.http).toBe(200);
    expect(r.body).toMatchObject({ status: 200, ok: true, data: ['admin'] });
  });

  it('answers 422 for tampered ciphertext', async () => {
    const s = await sealed(BUTTONS, { menuCode: 'ft-bank' });
    const { payload } = JSON.parse(s.payload!) as { payload: string };
    const bytes = fromBase64(payload);
    bytes[20]! ^= 0x01;
    const forged = toBase64(bytes);
    // Re-signed with K, so only the AES-GCM tag can catch the change.
    const key = await admin.envelopeKey();
    const signature = await sign(
      key.key,
      signingString('POST', BUTTONS, s.headers[H.timestamp]!, s.headers[H.nonce]!, forged),
    );
    const r = await inject(
      BUTTONS,
      { ...s.headers, [H.signature]: signature },
      JSON.stringify({ payload: forged }),
    );
    expect(r.body.msg).toBe('请求解密失败');
    expect(r.http).toBe(422);
    expect(r.body.status).toBe(422);
  });

  it('answers 422 for a wrong key id', async () => {
    const s = await sealed(INFO, undefined);
    const r = await inject(INFO, { ...s.headers, [H.keyId]: 'deadbeefdeadbeef' });
    expect(r.http).toBe(422);
  });

  it('answers 422 for a signature over another path (ids in the query are covered)', async () => {
    const target = `${BUTTONS}?bizCode=000000000002`;
    const s = await sealed(target, { menuCode: 'ft-bank' }, `${BUTTONS}?bizCode=000000000001`);
    expect((await inject(target, s.headers, s.payload)).http).toBe(422);
  });

  it('answers 422 for a stale timestamp, past or future', async () => {
    for (const skew of [-6 * 60_000, 6 * 60_000]) {
      const s = await sealed(INFO, undefined, INFO, Date.now() + skew);
      const r = await inject(INFO, s.headers);
      expect(r.http).toBe(422);
      expect(r.body.msg).toContain('过期');
    }
  });

  it('answers 422 for a replayed nonce', async () => {
    const s = await sealed(INFO, undefined);
    expect((await inject(INFO, s.headers)).http).toBe(200);
    const again = await inject(INFO, s.headers);
    expect(again.http).toBe(422);
    expect(again.body.msg).toContain('重复');
  });

  it('refuses a plaintext body and a call without envelope headers when the envelope is required', async () => {
    const r = await admin.call(BUTTONS, { menuCode: 'ft-bank' }, { plain: true });
    expect(r.httpStatus).toBe(422);
    const anon = t.client();
    const login = await anon.call(
      '/api/admin/portal/api/login/user/mobileNumberLogin',
      { userName: 'admin', passWord: 'x', userType: '2' },
      { plain: true },
    );
    expect(login.status).toBe(422);
  });

  it('answers 422 for an aes header that is not RSA of a 16-character key', async () => {
    const key = await createClientKey('x', await importRsaPublicKey(t.portal.keyring.publicKey().publicKey));
    const s = await sealed(INFO, undefined);
    const r = await inject(INFO, { ...s.headers, [H.aes]: key.aesHeader.slice(0, -8) + 'AAAAAAA=' });
    expect(r.http).toBe(422);
  });

  it('refuses a key from 10 minutes after its first use on, without decrypting it again', async () => {
    let now = Date.now();
    // The server's keyring on the same keys, with a clock the test moves.
    const ring = new Keyring(t.database.db, t.config.rsaRotationMs, () => now);
    await ring.init();
    const { keyId, publicKey } = ring.publicKey();
    const client = await createClientKey(keyId, await importRsaPublicKey(publicKey));
    const first = await ring.openKey(keyId, client.aesHeader);
    expect(first).toHaveProperty('key');
    now += KEY_REUSE_MS - 1;
    expect(await ring.openKey(keyId, client.aesHeader)).toEqual(first);
    now += 1;
    expect(await ring.openKey(keyId, client.aesHeader)).toEqual({ refused: 'expired' });
    // Still refused later: an expired header never starts a new 10 minutes.
    now += 60 * 60_000;
    expect(await ring.openKey(keyId, client.aesHeader)).toEqual({ refused: 'expired' });
    await ring.rotateIfDue();
    expect(await ring.openKey(keyId, client.aesHeader)).toEqual({ refused: 'expired' });
    // A new key works.
    const fresh = await createClientKey(keyId, await importRsaPublicKey(publicKey));
    expect(await ring.openKey(keyId, fresh.aesHeader)).toHaveProperty('key');
  });

  it('keeps accepting the previous key after one rotation, not after two', async () => {
    const before = t.portal.keyring.publicKey();
    const old = await createClientKey(before.keyId, await importRsaPublicKey(before.publicKey));
    const callWith = async () => {
      const s = await sealRequest(old, 'POST', INFO, undefined);
      return inject(INFO, { ...s.headers, authorization: `Bearer ${admin.token}` });
    };
    expect((await callWith()).http).toBe(200);
    await t.portal.keyring.rotate();
    expect((await callWith()).http).toBe(200);
    await t.portal.keyring.rotate();
    expect((await callWith()).http).toBe(422);
    (admin as unknown as { key: undefined }).key = undefined;
  });

  it('validates the decrypted body: 400 with a Chinese message naming the field', async () => {
    const r = await admin.call(BUTTONS, { menuCode: '' });
    expect(r.httpStatus).toBe(400);
    expect(r.msg).toBe('菜单编码不能为空');
    const wrongType = await admin.call(BUTTONS, { menuCode: 42 });
    expect(wrongType.msg).toBe('菜单编码格式不正确');
  });

  it('answers 413 for a body over the limit and carries x-request-id on every answer', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const res = await t.portal.app.inject({
      method: 'POST',
      url: BUTTONS,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ payload: big }),
    });
    expect([403, 413]).toContain(res.statusCode);
    const withSession = await admin.call(BUTTONS, { menuCode: 'x'.repeat(5 * 1024 * 1024) });
    expect(withSession.httpStatus).toBe(413);
    expect(withSession.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

const ANON_DOWNLOAD = `${API_PREFIX}${FILE_PATHS.download}`;

describe('rate limit', () => {
  it('answers 429 past the per-user limit, counting all the user’s sessions, other users unaffected', async () => {
    const limited = await createTestPortal({ RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_PER_IP_PER_MINUTE: '0' });
    try {
      const a = await limited.login();
      const b = await limited.login();
      await createUserWithCodes(limited.database.db, 'other', 'Other@12345678', []);
      const other = await limited.login('other', 'Other@12345678');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await a.call(INFO)).httpStatus);
      for (let i = 0; i < 3; i++) statuses.push((await b.call(INFO)).httpStatus);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = await a.call(INFO);
      expect([refused.httpStatus, refused.msg]).toEqual([429, '请求过于频繁，请稍后再试']);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await other.call(INFO)).httpStatus).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('counts API calls only: the web client’s files load past the limit, an API call does not', async () => {
    const web = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(web, 'assets', 'chunk.js'), 'export {};');
    const limited = await createTestPortal({
      RATE_LIMIT_PER_MINUTE: '5',
      RATE_LIMIT_PER_IP_PER_MINUTE: '8',
      WEB_DIST: web,
    });
    try {
      // A cold page of a browser without a session: its chunks and the SPA's routes, far past both limits.
      for (let i = 0; i < 30; i++) {
        const chunk = await limited.portal.app.inject({ method: 'GET', url: '/assets/chunk.js' });
        expect(chunk.statusCode, `chunk ${i}`).toBe(200);
      }
      expect((await limited.portal.app.inject({ method: 'GET', url: '/login' })).statusCode).toBe(200);
      // The API's anonymous allowance is untouched by them, and still ends at its five (an
      // anonymous download naming no file: refused, and counted).
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await limited.client().call(ANON_DOWNLOAD)).httpStatus);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    } finally {
      await limited.close();
      rmSync(web, { recursive: true, force: true });
    }
  });

  it('answers 429 past the per-IP limit whoever is signed in', async () => {
    const limited = await createTestPortal({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_IP_PER_MINUTE: '6' });
    try {
      const a = await limited.login();
      await createUserWithCodes(limited.database.db, 'other', 'Other@12345678', []);
      const other = await limited.login('other', 'Other@12345678');
      // Six calls reach the six of this address (the logins have limits of their own).
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await a.call(INFO)).httpStatus);
      statuses.push((await other.call(INFO)).httpStatus);
      statuses.push((await a.call(INFO)).httpStatus, (await other.call(INFO)).httpStatus);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
