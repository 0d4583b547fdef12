import { constants, createCipheriv, createHmac, publicEncrypt, randomBytes } from 'node:crypto';

/**
 * A second, synchronous implementation of the envelope on node:crypto, written from
 * docs/protocol.md alone: load generators need to sign inside a synchronous per-request hook, and an
 * independent client that the server accepts shows the protocol is implementable without our codec.
 */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function alnum(n: number): string {
  const bytes = randomBytes(n);
  let s = '';
  for (const b of bytes) s += ALNUM[b % 62];
  return s;
}

export class NodeEnvelope {
  private k!: Buffer;
  private aes!: string;

  constructor(
    private readonly keyId: string,
    private readonly publicPem: string,
  ) {
    this.rotate();
  }

  /** Draws a new K (a client may keep one for up to 10 minutes). */
  rotate(): void {
    this.k = Buffer.from(alnum(16), 'ascii');
    this.aes = publicEncrypt(
      { key: this.publicPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      this.k,
    ).toString('base64');
  }

  seal(
    method: string,
    pathWithQuery: string,
    body: unknown,
  ): { headers: Record<string, string>; body: string | undefined } {
    let payload = '';
    if (body !== undefined) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-128-gcm', this.k, iv);
      const ct = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final()]);
      payload = Buffer.concat([iv, ct, cipher.getAuthTag()]).toString('base64');
    }
    const timestamp = String(Date.now());
    const nonce = alnum(24);
    const signature = createHmac('sha256', this.k)
      .update(`${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${payload}`)
      .digest('hex');
    const headers: Record<string, string> = {
      aes: this.aes,
      'x-key-id': this.keyId,
      'x-timestamp': timestamp,
      'x-nonce': nonce,
      signature,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return { headers, body: body === undefined ? undefined : JSON.stringify({ payload }) };
  }
}
