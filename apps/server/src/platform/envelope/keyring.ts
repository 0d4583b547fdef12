import { generateKeyPair, hash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { desc, isNull, sql } from 'drizzle-orm';
import { fromBase64, importRsaPrivateKey, KEY_REUSE_MS } from '@portal/contract/envelope';
import type { Db } from '../db/client';
import { rsaKeys } from '../auth/schema';
import { advisoryXactLock } from '../db/advisory';

/** How often an unknown key id may make us reload the key ring from the database. */
const MISS_REFRESH_MS = 2_000;

const generateKeyPairAsync = promisify(generateKeyPair);

interface LoadedKey {
  keyId: string;
  publicPem: string;
  privateKey: CryptoKey;
  createdAt: number;
}

interface CachedSymmetric {
  keyId: string;
  /** K's 16 bytes (platform/envelope/symmetric.ts uses them); dropped once the key has expired. */
  key: Buffer | undefined;
  /** First use on this server + KEY_REUSE_MS. */
  expiresAt: number;
}

/**
 * Live keys and expired ones (kept, without K, so an expired header is refused rather than
 * decrypted again) until their RSA key retires. Beyond this many the oldest entry is dropped.
 */
const MAX_CACHED = 200_000;

/** openKey's answer: K, or why there is none (both answer 422; the message differs). */
export type OpenedKey = { key: Buffer } | { refused: 'invalid' | 'expired' };

/**
 * The server's RSA key pairs (docs/protocol.md "The server's key pair"): the current one and the previous
 * one, kept in the database so every instance shares them, rotated every `rotationMs`. Decrypted `aes`
 * headers are cached for KEY_REUSE_MS (keyed by a hash of the header) so RSA runs once per client key.
 */
export class Keyring {
  private current: LoadedKey | undefined;
  private previous: LoadedKey | undefined;
  private cache = new Map<string, CachedSymmetric>();
  private lastMissRefresh = 0;

  constructor(
    private readonly db: Db,
    private readonly rotationMs: number,
    /** The clock; tests pass their own to age a key without waiting ten minutes. */
    private readonly now: () => number = Date.now,
  ) {}

  async init(): Promise<void> {
    await this.refresh();
    if (!this.current || this.now() - this.current.createdAt >= this.rotationMs) await this.rotate(true);
  }

  /** Loads the two newest active keys (another instance may have rotated). */
  async refresh(): Promise<void> {
    const rows = await this.db
      .select()
      .from(rsaKeys)
      .where(isNull(rsaKeys.retiredAt))
      .orderBy(desc(rsaKeys.createdAt))
      .limit(2);
    const load = async (r: (typeof rows)[number] | undefined): Promise<LoadedKey | undefined> =>
      r && {
        keyId: r.keyId,
        publicPem: r.publicPem,
        privateKey: await importRsaPrivateKey(r.privatePem),
        createdAt: Date.parse(r.createdAt),
      };
    this.current = await load(rows[0]);
    this.previous = await load(rows[1]);
  }

  /**
   * New current key; the old current becomes previous; anything older is retired. `onlyIfDue`:
   * unless another server made a key younger than the rotation period meanwhile.
   */
  async rotate(onlyIfDue = false): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const keyId = randomBytes(8).toString('hex');
    await this.db.transaction(async (tx) => {
      // Servers starting (or rotating) together queue here; a later one finds the key the first
      // made and keeps it, so all of them hand out the same key (docs/operations.md "Several servers").
      await advisoryXactLock(tx, 'keyring', 'rotate');
      const [newest] = await tx
        .select({ createdAt: rsaKeys.createdAt })
        .from(rsaKeys)
        .where(isNull(rsaKeys.retiredAt))
        .orderBy(desc(rsaKeys.createdAt))
        .limit(1);
      if (onlyIfDue && newest && Date.now() - Date.parse(newest.createdAt) < this.rotationMs) return;
      await tx.insert(rsaKeys).values({ keyId, publicPem: publicKey, privatePem: privateKey });
      await tx.execute(sql`update rsa_keys set retired_at = now() where retired_at is null and key_id not in
        (select key_id from rsa_keys where retired_at is null order by created_at desc limit 2)`);
    });
    await this.refresh();
    this.pruneCache();
  }

  async rotateIfDue(): Promise<void> {
    await this.refresh();
    if (!this.current || this.now() - this.current.createdAt >= this.rotationMs) await this.rotate(true);
    this.pruneCache();
  }

  /**
   * The current key, and until when a client may keep sealing with it (ms since the epoch): the
   * end of its time as the current key. It is accepted one rotation longer still, as the previous
   * key, which covers a client's clock being off (docs/architecture.md, "The envelope key on a
   * reload").
   */
  publicKey(): { keyId: string; publicKey: string; reuseUntil: number } {
    if (!this.current) throw new Error('keyring not initialised');
    return {
      keyId: this.current.keyId,
      publicKey: this.current.publicPem,
      reuseUntil: this.current.createdAt + this.rotationMs,
    };
  }

  private byId(keyId: string): LoadedKey | undefined {
    if (this.current?.keyId === keyId) return this.current;
    if (this.previous?.keyId === keyId) return this.previous;
    return undefined;
  }

  /** Forgets keys of retired RSA keys (refused by key id anyway) and drops K of expired ones. */
  private pruneCache(): void {
    const now = this.now();
    for (const [h, c] of this.cache) {
      if (!this.byId(c.keyId)) this.cache.delete(h);
      else if (c.expiresAt <= now) c.key = undefined;
    }
  }

  /**
   * The symmetric key K of a request (docs/protocol.md "Key reuse"). Refused when the key id is unknown or
   * retired or the header does not decrypt (`invalid`), and when this header was first used more
   * than KEY_REUSE_MS ago (`expired`): the server never accepts a key after its 10 minutes, and
   * an expired header is not decrypted again, which would start a fresh 10 minutes.
   */
  async openKey(keyId: string, aesHeader: string): Promise<OpenedKey> {
    let rsa = this.byId(keyId);
    if (!rsa && this.now() - this.lastMissRefresh > MISS_REFRESH_MS) {
      // Another server may have rotated since our last refresh; at most one look per interval,
      // so made-up key ids cannot turn into a query each.
      this.lastMissRefresh = this.now();
      await this.refresh();
      rsa = this.byId(keyId);
    }
    if (!rsa) return { refused: 'invalid' };
    const h = hash('sha256', `${keyId}\0${aesHeader}`, 'base64');
    const now = this.now();
    const hit = this.cache.get(h);
    if (hit) {
      if (hit.expiresAt <= now || !hit.key) {
        hit.key = undefined;
        return { refused: 'expired' };
      }
      return { key: hit.key };
    }
    let raw: Uint8Array<ArrayBuffer>;
    try {
      raw = new Uint8Array(
        await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, rsa.privateKey, fromBase64(aesHeader)),
      );
    } catch {
      return { refused: 'invalid' };
    }
    if (!/^[A-Za-z0-9]{16}$/.test(new TextDecoder().decode(raw))) return { refused: 'invalid' };
    const key = Buffer.from(raw);
    // Two requests with one new header may both have decrypted it: the first entry counts.
    const raced = this.cache.get(h);
    if (raced) return raced.key && raced.expiresAt > now ? { key: raced.key } : { refused: 'expired' };
    if (this.cache.size >= MAX_CACHED) {
      // Full: prune, and if that freed little, drop the oldest entries down to 90 %, so the next
      // full pass is at least MAX_CACHED / 10 new keys away. Dropping one entry per new key, as
      // before, ran a pass over all 200,000 entries for every fresh key once the cache was full of
      // live ones (bench/README.md "The envelope's cost").
      this.pruneCache();
      for (const oldest of this.cache.keys()) {
        if (this.cache.size < MAX_CACHED * 0.9) break;
        this.cache.delete(oldest);
      }
    }
    this.cache.set(h, { keyId, key, expiresAt: now + KEY_REUSE_MS });
    return { key };
  }
}
