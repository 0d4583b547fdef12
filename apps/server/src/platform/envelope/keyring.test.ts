import { constants, generateKeyPairSync, publicEncrypt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClientKey, importRsaPublicKey, sign } from '@portal/contract/envelope';
import type { Db } from '../db/client';
import { Keyring } from './keyring';
import { signatureValid } from './symmetric';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const keyId = 'keyringtest00001';
const oaep = (bytes: string) =>
  publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(bytes, 'latin1'),
  ).toString('base64');

/** The keyring's one read (refresh): select … from rsa_keys where … order by … limit 2. */
function oneKeyTable(): Db {
  const row = { keyId, publicPem: publicKey, privatePem: privateKey, createdAt: new Date().toISOString() };
  const chain: Record<string, unknown> = {};
  for (const step of ['select', 'from', 'where', 'orderBy']) chain[step] = () => chain;
  chain.limit = async () => [row];
  return chain as unknown as Db;
}

let ring: Keyring;
beforeAll(async () => {
  ring = new Keyring(oneKeyTable(), 24 * 3600_000);
  await ring.refresh();
});

describe('Keyring.openKey (docs/protocol.md "Key reuse")', () => {
  it("opens the browser codec's aes header to the K the client signs with", async () => {
    const client = await createClientKey(keyId, await importRsaPublicKey(publicKey));
    const opened = await ring.openKey(keyId, client.aesHeader);
    if (!('key' in opened)) throw new Error(`refused: ${opened.refused}`);
    const text = 'POST\n/api/x\n1\nnonce0000000000001\n';
    expect(signatureValid(opened.key, text, await sign(client.key, text))).toBe(true);
  });

  it("gives calls that bring one new header together one K: the first decryption's entry", async () => {
    const client = await createClientKey(keyId, await importRsaPublicKey(publicKey));
    const opened = await Promise.all(Array.from({ length: 8 }, () => ring.openKey(keyId, client.aesHeader)));
    const keys = opened.map((o) => ('key' in o ? o.key : undefined));
    expect(keys[0]).toBeDefined();
    // The same Buffer: each call may have decrypted the header, but the first cache entry counts.
    expect(new Set(keys).size).toBe(1);
  });

  it('refuses what is not RSA-OAEP of 16 alphanumerics under a known key', async () => {
    expect(await ring.openKey(keyId, oaep('abcdefghijklmnop'))).toHaveProperty('key');
    expect(await ring.openKey(keyId, oaep('abcdefghijklmno!'))).toEqual({ refused: 'invalid' });
    expect(await ring.openKey(keyId, oaep('abcdefghijklmno'))).toEqual({ refused: 'invalid' });
    expect(await ring.openKey(keyId, 'QUJD')).toEqual({ refused: 'invalid' });
    expect(await ring.openKey('unknownkey000001', oaep('abcdefghijklmnop'))).toEqual({ refused: 'invalid' });
  });
});
