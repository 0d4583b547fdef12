import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createClientKey,
  decryptPayload,
  ENVELOPE_HEADERS,
  fromBase64,
  importRsaPrivateKey,
  importRsaPublicKey,
  importSymmetricKey,
  randomAlnum,
  sealRequest,
  signingString,
  toBase64,
  verifySignature,
} from './envelope';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

async function open(headers: Record<string, string>, body: string | undefined, method: string, path: string) {
  const priv = await importRsaPrivateKey(privateKey);
  const raw = new Uint8Array(
    await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, priv, fromBase64(headers[ENVELOPE_HEADERS.aes]!)),
  );
  const key = await importSymmetricKey(raw);
  const payload = body ? (JSON.parse(body) as { payload: string }).payload : '';
  const text = signingString(
    method,
    path,
    headers[ENVELOPE_HEADERS.timestamp]!,
    headers[ENVELOPE_HEADERS.nonce]!,
    payload,
  );
  const signed = await verifySignature(key, text, headers[ENVELOPE_HEADERS.signature]!);
  return { signed, plain: payload ? await decryptPayload(key, payload) : undefined, raw };
}

describe('envelope codec', () => {
  it('writes base64 as Node does at every length around its slices, and reads it back', () => {
    // toBase64 encodes a slice of 32,766 bytes at a time (a multiple of 3): the lengths at and
    // around the slice boundaries, where a wrong split would put padding inside the text.
    const bytes = Uint8Array.from({ length: 3 * 32_766 + 4 }, (_, i) => (i * 131 + (i >> 8)) & 0xff);
    for (const n of [0, 1, 2, 3, 32_765, 32_766, 32_767, 32_768, 65_532, 65_533, 98_298, 98_299, 98_302]) {
      const slice = bytes.subarray(0, n);
      const text = toBase64(slice);
      expect(text, String(n)).toBe(Buffer.from(slice).toString('base64'));
      expect(fromBase64(text)).toEqual(slice);
    }
  });

  it('round-trips a body and signs path, time and nonce', async () => {
    const client = await createClientKey('k1', await importRsaPublicKey(publicKey));
    const body = { name: '上海某某保理有限公司', amount: '1234567.80' };
    const sealed = await sealRequest(client, 'post', '/api/ft/api/contract/list?x=1', body);
    expect(sealed.headers[ENVELOPE_HEADERS.keyId]).toBe('k1');
    expect(sealed.headers[ENVELOPE_HEADERS.signature]).toMatch(/^[0-9a-f]{64}$/);
    const opened = await open(sealed.headers, sealed.body, 'POST', '/api/ft/api/contract/list?x=1');
    expect(opened.signed).toBe(true);
    expect(JSON.parse(opened.plain!)).toEqual(body);
    expect(new TextDecoder().decode(opened.raw)).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it('fails the signature over another path and the tag over a flipped byte', async () => {
    const client = await createClientKey('k1', await importRsaPublicKey(publicKey));
    const sealed = await sealRequest(client, 'POST', '/api/a?bizCode=000000000001', { a: 1 });
    expect((await open(sealed.headers, sealed.body, 'POST', '/api/a?bizCode=000000000002')).signed).toBe(
      false,
    );
    const { payload } = JSON.parse(sealed.body!) as { payload: string };
    const bytes = fromBase64(payload);
    bytes[bytes.length - 1]! ^= 1;
    const tampered = JSON.stringify({ payload: btoa(String.fromCharCode(...bytes)) });
    await expect(open(sealed.headers, tampered, 'POST', '/api/a?bizCode=000000000001')).rejects.toThrow();
  });

  it('signs a call without a body over the empty payload', async () => {
    const client = await createClientKey('k1', await importRsaPublicKey(publicKey));
    const sealed = await sealRequest(client, 'POST', '/api/x', undefined);
    expect(sealed.body).toBeUndefined();
    expect((await open(sealed.headers, undefined, 'POST', '/api/x')).signed).toBe(true);
  });

  it('draws keys and nonces from [A-Za-z0-9]', () => {
    const s = randomAlnum(5000);
    expect(s).toMatch(/^[A-Za-z0-9]{5000}$/);
    expect(new Set(s).size).toBe(62);
  });
});
