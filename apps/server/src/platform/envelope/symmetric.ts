import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The per-call half of the envelope (docs/protocol.md "The envelope") on node:crypto: synchronous, where
 * WebCrypto (the browser's codec in @portal/contract/envelope) queues a job to the thread pool and back for
 * each of the two operations of every call. The key is K's 16 bytes, an AES-128 and an HMAC-SHA256 key.
 */

/** `signature` (lowercase hex) is HMAC-SHA256 over `text`, compared in constant time. */
export function signatureValid(key: Buffer, text: string, signatureHex: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signatureHex)) return false;
  return timingSafeEqual(
    createHmac('sha256', key).update(text, 'utf8').digest(),
    Buffer.from(signatureHex, 'hex'),
  );
}

/** base64(IV ‖ CIPHERTEXT ‖ TAG), AES-128-GCM with a 12-byte IV and a 16-byte tag; throws if forged. */
export function openPayload(key: Buffer, payloadB64: string): string {
  const bytes = Buffer.from(payloadB64, 'base64');
  if (bytes.length < 12 + 16) throw new Error('payload too short');
  const decipher = createDecipheriv('aes-128-gcm', key, bytes.subarray(0, 12), { authTagLength: 16 });
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}
