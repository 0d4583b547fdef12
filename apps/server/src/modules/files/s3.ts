import { createHash, createHmac } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FileStore } from './storage';

/** S3-compatible object storage (AWS S3, MinIO, Ceph, OSS/COS S3 endpoints), path-style URLs. */
export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket. */
  prefix: string;
}

/** S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (+ S3_REGION, S3_PREFIX); unset = local files. */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv): S3Config | undefined {
  const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
  if (!S3_ENDPOINT && !S3_BUCKET) return undefined;
  if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY)
    throw new Error('S3 storage needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  return {
    endpoint: S3_ENDPOINT.replace(/\/+$/, ''),
    bucket: S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    prefix: (env.S3_PREFIX ?? 'files/').replace(/^\/+/, ''),
  };
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const encodeSegment = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface SignInput {
  method: string;
  url: URL;
  /** Headers to sign (lower-case names); host is added from the URL. */
  headers: Record<string, string>;
  payloadHash: string;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** YYYYMMDD'T'HHMMSS'Z' */
  amzDate: string;
}

/** AWS Signature Version 4: the Authorization header value. */
export function signV4(i: SignInput): string {
  const headers: Record<string, string> = { host: i.url.host, ...i.headers };
  const names = Object.keys(headers)
    .map((h) => h.toLowerCase())
    .sort();
  const canonicalHeaders = names
    .map((n) => `${n}:${(headers[n] ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const signedHeaders = names.join(';');
  const query = [...i.url.searchParams.entries()]
    .map(([k, v]) => [encodeSegment(k), encodeSegment(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    i.method,
    i.url.pathname,
    query,
    canonicalHeaders,
    signedHeaders,
    i.payloadHash,
  ].join('\n');
  const day = i.amzDate.slice(0, 8);
  const scope = `${day}/${i.region}/${i.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', i.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${i.secretAccessKey}`, day), i.region), i.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${i.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

export function s3Store(cfg: S3Config, localRoot: string): FileStore {
  const urlOf = (key: string) =>
    new URL(
      `${cfg.endpoint}/${encodeSegment(cfg.bucket)}/${`${cfg.prefix}${key}`.split('/').map(encodeSegment).join('/')}`,
    );
  const request = async (method: 'PUT' | 'GET' | 'DELETE', key: string, body?: Buffer, mime?: string) => {
    const url = urlOf(key);
    const amzDate = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const payloadHash = body ? sha256Hex(body) : 'UNSIGNED-PAYLOAD';
    const signed = { 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
    const authorization = signV4({
      method,
      url,
      headers: signed,
      payloadHash,
      region: cfg.region,
      service: 's3',
      accessKeyId: cfg.accessKeyId,
      secretAccessKey: cfg.secretAccessKey,
      amzDate,
    });
    const res = await fetch(url, {
      method,
      headers: { ...signed, authorization, ...(mime ? { 'content-type': mime } : {}) },
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
    if (!res.ok && !(method === 'DELETE' && res.status === 404)) {
      throw new Error(`S3 ${method} ${key} answered ${res.status}`);
    }
    return res;
  };
  return {
    kind: 's3',
    tempDir: join(localRoot, '.tmp'),
    async put(key, tempPath, meta) {
      try {
        await request('PUT', key, await readFile(tempPath), meta.mime);
      } finally {
        await rm(tempPath, { force: true });
      }
    },
    async get(key) {
      const res = await request('GET', key);
      if (!res.body) throw new Error(`S3 GET ${key} has no body`);
      return Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
    },
    async remove(key) {
      await request('DELETE', key);
    },
  };
}
