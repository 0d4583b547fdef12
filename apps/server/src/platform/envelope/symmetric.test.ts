import { describe, expect, it } from 'vitest';
import { encryptPayload, importSymmetricKey, sign } from '@portal/contract/envelope';
import { openPayload, signatureValid } from './symmetric';

// What the browser's WebCrypto codec produces, the server's node:crypto half must open.
const K = 'Ab3dEf6hIj9kLm2n';
const raw = new TextEncoder().encode(K);
const nodeKey = Buffer.from(K, 'ascii');

describe('the server half of the envelope on node:crypto', () => {
  it("opens the browser codec's payload and accepts its signature", async () => {
    const key = await importSymmetricKey(raw);
    const body = { pageNum: 1, custName: '上海测试供应链有限公司', amount: '1234567.89' };
    const payload = await encryptPayload(key, JSON.stringify(body));
    expect(JSON.parse(openPayload(nodeKey, payload))).toEqual(body);
    const text = `POST\n/api/x?a=1\n1700000000000\nabcdefghijklmnop\n${payload}`;
    expect(signatureValid(nodeKey, text, await sign(key, text))).toBe(true);
  });

  it('refuses a forged payload, a wrong key and a wrong or malformed signature', async () => {
    const key = await importSymmetricKey(raw);
    const payload = await encryptPayload(key, '{"a":1}');
    const bytes = Buffer.from(payload, 'base64');
    bytes[14] = bytes[14]! ^ 1;
    expect(() => openPayload(nodeKey, bytes.toString('base64'))).toThrow();
    expect(() => openPayload(Buffer.from('X'.repeat(16)), payload)).toThrow();
    expect(() => openPayload(nodeKey, Buffer.alloc(27).toString('base64'))).toThrow();
    const good = await sign(key, 'text');
    const flipped = `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`;
    expect(signatureValid(nodeKey, 'text', flipped)).toBe(false);
    expect(signatureValid(nodeKey, 'text2', good)).toBe(false);
    expect(signatureValid(nodeKey, 'text', good.toUpperCase())).toBe(false);
    expect(signatureValid(nodeKey, 'text', good.slice(0, 62))).toBe(false);
  });
});
