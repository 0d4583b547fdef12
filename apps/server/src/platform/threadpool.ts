import { availableParallelism } from 'node:os';

/**
 * libuv's thread pool runs file I/O, scrypt and WebCrypto's RSA alike (SECURITY.md "Sign-in").
 * Password hashes take at most `hashSlots` threads (platform/auth/hash-gate.ts); the pool gets
 * four more so downloads, uploads and envelope keys never wait behind a login flood.
 */
export function hashSlots(cores = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

export function threadPoolSize(cores = availableParallelism()): number {
  return hashSlots(cores) + 4;
}

/** The pool size of this process: UV_THREADPOOL_SIZE as libuv reads it, 4 when unset. */
export function currentPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 1024) : 4;
}
