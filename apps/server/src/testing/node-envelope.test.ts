import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, type TestPortal } from './harness';
import { NodeEnvelope } from './node-envelope';

let t: TestPortal;
let token: string;
beforeAll(async () => {
  t = await createTestPortal();
  token = (await t.login()).token!;
});
afterAll(() => t.close());

describe('an independent node:crypto client of the envelope', () => {
  it('is accepted by the server, with a body and without, with a reused and a fresh key', async () => {
    const { keyId, publicKey } = t.portal.keyring.publicKey();
    const env = new NodeEnvelope(keyId, publicKey);
    for (let i = 0; i < 3; i++) {
      if (i === 2) env.rotate();
      const url = '/api/admin/portal/user/res/menu/btns';
      const s = env.seal('POST', url, { menuCode: 'ft-bank' });
      const res = await t.portal.app.inject({
        method: 'POST',
        url,
        headers: { ...s.headers, authorization: `Bearer ${token}` },
        payload: s.body!,
      });
      expect(res.json()).toMatchObject({ status: 200, data: ['admin'] });
      const info = env.seal('POST', '/api/admin/portal/user/info', undefined);
      const r2 = await t.portal.app.inject({
        method: 'POST',
        url: '/api/admin/portal/user/info',
        headers: { ...info.headers, authorization: `Bearer ${token}` },
      });
      expect(r2.statusCode).toBe(200);
    }
  });
});
