import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost. It is stored with each hash, so a verify uses the cost its hash was made with and
 * the cost can be raised later without invalidating existing passwords.
 */
export interface HashCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * Every server's cost: memory-hard, N=2^15, r=8 (32 MiB and ≈ 70 ms of CPU a hash). A server's
 * `Config.passwordHashCost` is always this (platform/config.ts); only test portals build with a
 * lower one (SECURITY.md "Sign-in").
 */
export const PASSWORD_HASH_COST: HashCost = Object.freeze({ N: 32768, r: 8, p: 1 });
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost: HashCost = PASSWORD_HASH_COST): Promise<string> {
  const { N, r, p } = cost;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r, p, maxmem: MAXMEM });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return timingSafeEqual(key, expected);
}

/**
 * A hash of a random password at the portal's cost: verifying an unknown user's password against
 * it costs the same as a real user's.
 */
const dummies = new Map<string, Promise<string>>();
export function dummyHash(cost: HashCost = PASSWORD_HASH_COST): Promise<string> {
  const key = `${cost.N}$${cost.r}$${cost.p}`;
  let dummy = dummies.get(key);
  if (!dummy) {
    dummy = hashPassword(randomBytes(12).toString('hex'), cost);
    dummies.set(key, dummy);
  }
  return dummy;
}
