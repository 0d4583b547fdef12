/**
 * The server's half of the envelope in one process, without HTTP or a database (issue 42 §2):
 * `npx tsx bench/envelope-open.ts [--calls 4000]`. Sealed list calls (NodeEnvelope, sealed before
 * the clock starts) are opened by the server's own `openEnvelope` with its real Keyring (its key
 * read from a stand-in for the table) and a nonce store in memory, so what is measured is the
 * server's envelope code alone: CPU a call (process.cpuUsage: every thread of the process, the
 * thread pool's RSA included), with a reused key and with a fresh key per call, and the parts of
 * a fresh key's cost: the RSA-OAEP decryption by WebCrypto (what the keyring calls, on the thread
 * pool), one at a time and 32 at once (the load run's connections), and by node:crypto's
 * synchronous privateDecrypt (on the event loop's thread), for comparison. The database's nonce
 * claim, the one statement a sealed call adds, is measured by the load run and by
 * bench/nonce-claim.ts (bench/README.md "The envelope's cost").
 */
import { constants, createPrivateKey, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { fromBase64, importRsaPrivateKey } from '@portal/contract/envelope';
import type { Db } from '../apps/server/src/platform/db/client';
import type { Config } from '../apps/server/src/platform/config';
import { Keyring } from '../apps/server/src/platform/envelope/keyring';
import type { NonceStore } from '../apps/server/src/platform/envelope/nonces';
import { openEnvelope } from '../apps/server/src/platform/http/envelope-hook';
import { NodeEnvelope } from '../apps/server/src/testing/node-envelope';
import { LIST_BODY, LIST_PATH } from './load/scenarios';

const callsArg = process.argv.indexOf('--calls');
const CALLS = callsArg > 0 ? Number(process.argv[callsArg + 1]) : 4000;

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const keyId = 'benchkey00000001';
const row = { keyId, publicPem: publicKey, privatePem: privateKey, createdAt: new Date().toISOString() };
// The keyring's one read (refresh): select … from rsa_keys where … order by … limit 2.
const chain: Record<string, unknown> = {};
for (const step of ['select', 'from', 'where', 'orderBy']) chain[step] = () => chain;
chain.limit = async () => [row];
const keyring = new Keyring(chain as unknown as Db, 24 * 3600_000);
await keyring.refresh();

const seen = new Set<string>();
const nonces: NonceStore = {
  claim: async (n) => !seen.has(n) && !!seen.add(n),
  purge: async () => undefined,
};
const deps = {
  config: { envelope: 'required' } as Config,
  keyring,
  nonces,
  hasBodySchema: true,
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms a call of `open` over `calls` prepared inputs (or `calls` given), run one after another. */
async function measure<T>(
  name: string,
  inputs: T[],
  open: (input: T) => Promise<unknown>,
  calls = inputs.length,
) {
  const before = cpuMs();
  for (const input of inputs) await open(input);
  const perCall = (cpuMs() - before) / calls;
  console.info(`${name.padEnd(48)} ${(perCall * 1000).toFixed(1).padStart(7)} µs CPU a call`);
  return perCall;
}

function sealedRequests(env: NodeEnvelope, fresh: boolean) {
  return Array.from({ length: CALLS }, () => {
    if (fresh) env.rotate();
    const s = env.seal('POST', LIST_PATH, LIST_BODY);
    return { headers: s.headers, body: JSON.parse(s.body!) as unknown };
  });
}

const openOne = (r: { headers: Record<string, string>; body: unknown }) =>
  openEnvelope(
    { method: 'POST', url: LIST_PATH, headers: r.headers, body: r.body } as unknown as FastifyRequest,
    deps,
  );

const cryptoKey = await importRsaPrivateKey(privateKey);
const keyObject = createPrivateKey(privateKey);
const results: Record<string, number> = {};
// Two passes: the first warms the JIT and the thread pool; the second is printed last and kept.
for (const pass of [1, 2]) {
  console.info(`pass ${pass}`);
  const reused = new NodeEnvelope(keyId, publicKey);
  results.reusedKey = await measure('openEnvelope, reused key', sealedRequests(reused, false), openOne);
  results.freshKey = await measure(
    'openEnvelope, fresh key per call',
    sealedRequests(new NodeEnvelope(keyId, publicKey), true),
    openOne,
  );
  const aesHeaders = sealedRequests(new NodeEnvelope(keyId, publicKey), true).map((r) => r.headers.aes!);
  results.rsaWebCrypto = await measure('RSA-OAEP decrypt, WebCrypto (the keyring)', aesHeaders, (h) =>
    crypto.subtle.decrypt({ name: 'RSA-OAEP' }, cryptoKey, fromBase64(h)),
  );
  results.rsaWebCrypto32 = await measure(
    'RSA-OAEP decrypt, WebCrypto, 32 at once',
    Array.from({ length: Math.ceil(aesHeaders.length / 32) }, (_, i) =>
      aesHeaders.slice(i * 32, i * 32 + 32),
    ),
    (hs) => Promise.all(hs.map((h) => crypto.subtle.decrypt({ name: 'RSA-OAEP' }, cryptoKey, fromBase64(h)))),
    aesHeaders.length,
  );
  results.rsaNodeSync = await measure('RSA-OAEP decrypt, node:crypto privateDecrypt', aesHeaders, async (h) =>
    privateDecrypt(
      { key: keyObject, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(h, 'base64'),
    ),
  );
}
const extra = results.freshKey! - results.reusedKey!;
console.info(
  JSON.stringify({
    calls: CALLS,
    reusedKeyUs: +(results.reusedKey! * 1000).toFixed(1),
    freshKeyUs: +(results.freshKey! * 1000).toFixed(1),
    freshOverReusedUs: +(extra * 1000).toFixed(1),
    rsaNodeSyncUs: +(results.rsaNodeSync! * 1000).toFixed(1),
    rsaWebCryptoUs: +(results.rsaWebCrypto! * 1000).toFixed(1),
    rsaWebCrypto32Us: +(results.rsaWebCrypto32! * 1000).toFixed(1),
    // What a fresh key costs beyond its RSA decryption (cache entry, hashing, copies): ≈ 0 is the claim.
    freshBeyondRsaUs: +((extra - results.rsaWebCrypto!) * 1000).toFixed(1),
  }),
);
