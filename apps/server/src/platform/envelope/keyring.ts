import { createHash, generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { desc, isNull, sql } from 'drizzle-orm';
import { fromBase64, importRsaPrivateKey, KEY_REUSE_MS } from '@portal/contract/envelope';
import type { Db } from '../db/client';
import { rsaKeys } from '../auth/schema';

const generateKeyPairAsync = promisify(generateKeyPair);

interface LoadedKey {
  keyId: string;
  publicPem: string;
  privateKey: CryptoKey;
  createdAt: number;
}

interface CachedSymmetric {
  keyId: string;
  /** K's 16 bytes (platform/envelope/symmetric.ts uses them). */
  key: Buffer;
  expiresAt: number;
}

const MAX_CACHED = 50_000;

/**
 * The server's RSA key pairs (PROTOCOL.md §3): the current one and the previous one, kept in the
 * database so every instance shares them, rotated every `rotationMs`. Decrypted `aes` headers are
 * cached for KEY_REUSE_MS (keyed by a hash of the header) so RSA runs once per client key.
 */
export class Keyring {
  private current: LoadedKey | undefined;
  private previous: LoadedKey | undefined;
  private cache = new Map<string, CachedSymmetric>();

  constructor(
    private readonly db: Db,
    private readonly rotationMs: number,
  ) {}

  async init(): Promise<void> {
    await this.refresh();
    if (!this.current || Date.now() - this.current.createdAt >= this.rotationMs) await this.rotate();
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

  /** New current key; the old current becomes previous; anything older is retired. */
  async rotate(): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const keyId = randomBytes(8).toString('hex');
    await this.db.transaction(async (tx) => {
      await tx.insert(rsaKeys).values({ keyId, publicPem: publicKey, privatePem: privateKey });
      await tx.execute(sql`update rsa_keys set retired_at = now() where retired_at is null and key_id not in
        (select key_id from rsa_keys where retired_at is null order by created_at desc limit 2)`);
    });
    await this.refresh();
    this.pruneCache();
  }

  async rotateIfDue(): Promise<void> {
    await this.refresh();
    if (!this.current || Date.now() - this.current.createdAt >= this.rotationMs) await this.rotate();
    this.pruneCache();
  }

  publicKey(): { keyId: string; publicKey: string } {
    if (!this.current) throw new Error('keyring not initialised');
    return { keyId: this.current.keyId, publicKey: this.current.publicPem };
  }

  private byId(keyId: string): LoadedKey | undefined {
    if (this.current?.keyId === keyId) return this.current;
    if (this.previous?.keyId === keyId) return this.previous;
    return undefined;
  }

  private pruneCache(): void {
    const now = Date.now();
    for (const [h, c] of this.cache) if (c.expiresAt <= now || !this.byId(c.keyId)) this.cache.delete(h);
  }

  /**
   * The symmetric key K of a request, or undefined when the key id is unknown or retired, or the
   * header does not decrypt. A cached K is never used after its 10 minutes nor past a rotation.
   */
  async openKey(keyId: string, aesHeader: string): Promise<Buffer | undefined> {
    const rsa = this.byId(keyId);
    if (!rsa) return undefined;
    const h = createHash('sha256').update(keyId).update('\0').update(aesHeader).digest('base64');
    const now = Date.now();
    const hit = this.cache.get(h);
    if (hit && hit.expiresAt > now && hit.keyId === keyId) return hit.key;
    let raw: Uint8Array<ArrayBuffer>;
    try {
      raw = new Uint8Array(
        await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, rsa.privateKey, fromBase64(aesHeader)),
      );
    } catch {
      return undefined;
    }
    if (!/^[A-Za-z0-9]{16}$/.test(new TextDecoder().decode(raw))) return undefined;
    const key = Buffer.from(raw);
    if (this.cache.size >= MAX_CACHED) this.pruneCache();
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(h, { keyId, key, expiresAt: now + KEY_REUSE_MS });
    return key;
  }
}
