import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../../platform/config';
import { StartupError } from '../../platform/startup';
import { byteRangeHeader, type ByteRange, type FileStore } from './storage';

/**
 * Uploads larger than this go up in parts of this size, at most two at a time: memory per upload
 * stays at two parts whatever the file's size (docs/operations.md "Object storage").
 */
const PART_BYTES = 8 * 1024 * 1024;

export function s3Client(cfg: S3Config): S3Client {
  return new S3Client({
    endpoint: cfg.endpoint,
    region: cfg.region,
    forcePathStyle: true,
    credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey },
    maxAttempts: cfg.maxAttempts,
    requestHandler: {
      connectionTimeout: cfg.timeoutMs,
      requestTimeout: cfg.timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: cfg.timeoutMs,
    },
    // S3-compatible servers (MinIO, Ceph, OSS) do not all take the SDK's newer default checksum
    // trailers; the upload is hashed on our side already (files/service.ts).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The operator's one line for a bucket the start-up cannot use. */
function explainBucketError(err: unknown, cfg: S3Config): string {
  const where = `bucket "${cfg.bucket}" at ${cfg.endpoint}`;
  const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
  if (status === 404 || (err as { name?: string }).name === 'NotFound')
    return `S3_BUCKET: ${where} does not exist; create it or correct S3_BUCKET.`;
  if (status === 403 || status === 401)
    return `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: ${where} refused these credentials; correct the key pair or the bucket's policy.`;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `S3_ENDPOINT: nothing answers at ${cfg.endpoint} (${code}); correct the endpoint or start the object store.`;
  return `S3: ${where} cannot be used (${(err as Error).message || String(err)}).`;
}

export function s3Store(cfg: S3Config, localRoot: string, client = s3Client(cfg)): FileStore {
  const Bucket = cfg.bucket;
  const keyOf = (key: string) => `${cfg.prefix}${key}`;
  return {
    kind: 's3',
    tempDir: join(localRoot, '.tmp'),
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        throw new StartupError(explainBucketError(err, cfg));
      }
    },
    async put(key, tempPath, meta) {
      try {
        await new Upload({
          client,
          params: {
            Bucket,
            Key: keyOf(key),
            Body: createReadStream(tempPath),
            ContentType: meta.mime,
            ContentLength: meta.size,
          },
          partSize: PART_BYTES,
          queueSize: 2,
          leavePartsOnError: false,
        }).done();
      } finally {
        await rm(tempPath, { force: true });
      }
    },
    async get(key, range?: ByteRange) {
      const out = await client.send(
        new GetObjectCommand({ Bucket, Key: keyOf(key), Range: range && byteRangeHeader(range) }),
      );
      if (!(out.Body instanceof Readable)) throw new Error(`S3 GET ${key} answered no stream`);
      return out.Body;
    },
    async remove(key) {
      // A missing object is already removed (S3 answers 204 to deleting one).
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    close() {
      client.destroy();
    },
  };
}
