/**
 * Request envelope (docs/protocol.md "The envelope"), on WebCrypto so one codec serves the browser and Node.
 * A client seals: AES-128-GCM body under a random 16-character key K, K RSA-OAEP-encrypted
 * in the `aes` header, HMAC-SHA256 signature over method, path, timestamp, nonce and payload.
 */

export const ENVELOPE_HEADERS = {
  aes: 'aes',
  keyId: 'x-key-id',
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
  signature: 'signature',
} as const;

/** docs/protocol.md "Key reuse": how long a client may keep one K, and how long the server caches it. */
export const KEY_REUSE_MS = 10 * 60 * 1000;
/** docs/protocol.md "Opening, in order": allowed distance between x-timestamp and the server clock. */
export const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;
export const SESSION_KEY_LENGTH = 16;
export const NONCE_LENGTH = 24;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function randomAlnum(length: number): string {
  // Rejection sampling keeps the distribution uniform over 62 symbols.
  let out = '';
  const buf = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(buf);
    for (const b of buf) {
      if (b < 248 && out.length < length) out += ALNUM[b % 62];
    }
  }
  return out;
}

/**
 * Base64 of bytes, a slice of a multiple of 3 bytes at a time: each slice's base64 is that of its
 * bytes alone, so the joined slices are the whole's. One binary string of the whole payload, then
 * one `btoa`, cost 4–5 × the CPU on a 13 MB payload (bench/README.md "Fifteenth pass").
 */
const BASE64_SLICE = 0x8000 - (0x8000 % 3);
export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += BASE64_SLICE) {
    parts.push(btoa(String.fromCharCode(...bytes.subarray(i, i + BASE64_SLICE))));
  }
  return parts.join('');
}

export function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  return fromBase64(body);
}

export function importRsaPublicKey(spkiPem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', pemToDer(spkiPem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
    'encrypt',
  ]);
}

export function importRsaPrivateKey(pkcs8Pem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', pemToDer(pkcs8Pem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
    'decrypt',
  ]);
}

/** The symmetric half of an envelope: K imported once for AES-GCM and for HMAC. */
export interface SymmetricKey {
  aesKey: CryptoKey;
  hmacKey: CryptoKey;
}

export async function importSymmetricKey(raw: Uint8Array<ArrayBuffer>): Promise<SymmetricKey> {
  if (raw.length !== SESSION_KEY_LENGTH) throw new Error('envelope key must be 16 bytes');
  const [aesKey, hmacKey] = await Promise.all([
    crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']),
    crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']),
  ]);
  return { aesKey, hmacKey };
}

export function signingString(
  method: string,
  pathWithQuery: string,
  timestamp: string,
  nonce: string,
  payload: string,
) {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${payload}`;
}

export async function sign(key: SymmetricKey, text: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key.hmacKey, encoder.encode(text));
  return toHex(new Uint8Array(mac));
}

/** Constant-time check of a hex signature (WebCrypto's verify compares in constant time). */
export async function verifySignature(
  key: SymmetricKey,
  text: string,
  signatureHex: string,
): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(signatureHex)) return false;
  const sig = new Uint8Array(32);
  for (let i = 0; i < 32; i++) sig[i] = parseInt(signatureHex.slice(i * 2, i * 2 + 2), 16);
  return crypto.subtle.verify('HMAC', key.hmacKey, sig, encoder.encode(text));
}

export async function encryptPayload(key: SymmetricKey, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key.aesKey, encoder.encode(plaintext)),
  );
  const out = new Uint8Array(12 + ct.length);
  out.set(iv, 0);
  out.set(ct, 12);
  return toBase64(out);
}

/** Throws when the payload is malformed or its tag does not verify. */
export async function decryptPayload(key: SymmetricKey, payloadB64: string): Promise<string> {
  const bytes = fromBase64(payloadB64);
  if (bytes.length < 12 + 16) throw new Error('payload too short');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, 12) },
    key.aesKey,
    bytes.subarray(12),
  );
  return decoder.decode(plain);
}

/** A client's envelope key: K, its RSA-encrypted header, and when it was drawn. */
export interface ClientEnvelopeKey {
  keyId: string;
  aesHeader: string;
  key: SymmetricKey;
  createdAt: number;
}

export async function createClientKey(
  keyId: string,
  publicKey: CryptoKey,
  now = Date.now(),
): Promise<ClientEnvelopeKey> {
  const k = encoder.encode(randomAlnum(SESSION_KEY_LENGTH));
  const wrapped = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, k));
  return { keyId, aesHeader: toBase64(wrapped), key: await importSymmetricKey(k), createdAt: now };
}

/** True while a client may keep reusing this key (a margin of one minute under the server's limit). */
export function isClientKeyFresh(key: ClientEnvelopeKey, now = Date.now()): boolean {
  return now - key.createdAt < KEY_REUSE_MS - 60_000;
}

export interface SealedRequest {
  headers: Record<string, string>;
  /** JSON text of `{ payload }`, or undefined for a call without a body. */
  body: string | undefined;
}

export async function sealRequest(
  key: ClientEnvelopeKey,
  method: string,
  pathWithQuery: string,
  body: unknown,
  now = Date.now(),
): Promise<SealedRequest> {
  const payload = body === undefined ? '' : await encryptPayload(key.key, JSON.stringify(body));
  const timestamp = String(now);
  const nonce = randomAlnum(NONCE_LENGTH);
  const signature = await sign(key.key, signingString(method, pathWithQuery, timestamp, nonce, payload));
  const headers: Record<string, string> = {
    [ENVELOPE_HEADERS.aes]: key.aesHeader,
    [ENVELOPE_HEADERS.keyId]: key.keyId,
    [ENVELOPE_HEADERS.timestamp]: timestamp,
    [ENVELOPE_HEADERS.nonce]: nonce,
    [ENVELOPE_HEADERS.signature]: signature,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { headers, body: body === undefined ? undefined : JSON.stringify({ payload }) };
}
