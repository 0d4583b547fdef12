import {
  createClientKey,
  importRsaPublicKey,
  isClientKeyFresh,
  type ClientEnvelopeKey,
} from '@portal/contract/envelope';
import { API_PREFIX, REQUEST_TIMEOUT_MS, type ApiResponse } from '@portal/contract/api';
import { AUTH_PATHS } from '@portal/contract/session';

/**
 * The RSA key set (docs/protocol.md "The server's key pair") and the client envelope key K, reused while
 * fresh (up to the 10-minute window of `isClientKeyFresh`). A 422 answer drops both (`dropKeys`).
 */
interface RsaKeySet {
  keyId: string;
  publicKey: CryptoKey;
}

let rsa: RsaKeySet | null = null;
let rsaPending: Promise<RsaKeySet> | null = null;
let clientKey: ClientEnvelopeKey | null = null;
let clientPending: Promise<ClientEnvelopeKey> | null = null;

export class RsaKeyError extends Error {}

/**
 * Every call of the page waits on this one fetch (`rsaPending`), so it must end: without a
 * timeout, one key request that never got an answer left the guard and every later call waiting
 * for good (docs/architecture.md, "Every call ends").
 */
async function fetchRsaKey(timeoutMs: number): Promise<RsaKeySet> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  let res: Response;
  let body: ApiResponse<{ keyId: string; publicKey: string; reuseUntil?: number }> | undefined;
  try {
    res = await fetch(`${API_PREFIX}${AUTH_PATHS.rsaKey}`, {
      method: 'POST',
      credentials: 'include',
      signal: ctrl.signal,
    });
    try {
      body = (await res.json()) as ApiResponse<{ keyId: string; publicKey: string; reuseUntil?: number }>;
    } catch {
      body = undefined;
    }
  } catch (err) {
    if (ctrl.signal.aborted) throw new RsaKeyError(`timeout of ${timeoutMs}ms exceeded`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok || !body?.data?.publicKey) {
    throw new RsaKeyError(body?.msg || `Request failed with status code ${res.status}`);
  }
  const key = { keyId: body.data.keyId, publicKey: await importRsaPublicKey(body.data.publicKey) };
  const { reuseUntil } = body.data;
  if (typeof reuseUntil === 'number')
    storeRsaKey({ keyId: body.data.keyId, pem: body.data.publicKey, reuseUntil });
  return key;
}

/**
 * The public key outlives the page (localStorage): a reload or a new tab seals its first call at
 * once instead of waiting for the key fetch, which on a cold start queues behind the screen's
 * chunks. It is public, and kept only until the server's `reuseUntil` (the end of its time as the
 * current key); should the server refuse it anyway (422), the one retry fetches a fresh one
 * (docs/architecture.md, "The envelope key on a reload").
 */
const STORED_RSA_KEY = 'portal.rsaKey';

interface StoredRsaKey {
  keyId: string;
  pem: string;
  reuseUntil: number;
}

function storeRsaKey(key: StoredRsaKey): void {
  try {
    localStorage.setItem(STORED_RSA_KEY, JSON.stringify(key));
  } catch {
    // Storage full or blocked: the next page fetches the key again.
  }
}

function storedRsaKey(now = Date.now()): StoredRsaKey | null {
  try {
    const raw = localStorage.getItem(STORED_RSA_KEY);
    const key = raw ? (JSON.parse(raw) as Partial<StoredRsaKey>) : null;
    if (
      typeof key?.keyId === 'string' &&
      typeof key.pem === 'string' &&
      typeof key.reuseUntil === 'number' &&
      now < key.reuseUntil
    ) {
      return { keyId: key.keyId, pem: key.pem, reuseUntil: key.reuseUntil };
    }
  } catch {
    // Unreadable: fetch a fresh key.
  }
  return null;
}

/** The stored key when there is a usable one, else a fresh fetch. */
async function loadRsaKey(timeoutMs: number): Promise<RsaKeySet> {
  const stored = storedRsaKey();
  if (stored) {
    try {
      return { keyId: stored.keyId, publicKey: await importRsaPublicKey(stored.pem) };
    } catch {
      forgetStoredRsaKey();
    }
  }
  return fetchRsaKey(timeoutMs);
}

function forgetStoredRsaKey(): void {
  try {
    localStorage.removeItem(STORED_RSA_KEY);
  } catch {
    // nothing stored that could be read either
  }
}

export function hasRsaKey(): boolean {
  return rsa !== null;
}

/**
 * The RSA key set is loaded when absent (once, shared by concurrent callers). A failed
 * or timed-out fetch rejects every waiter and is forgotten, so the next call asks again.
 */
export function ensureRsaKey(timeoutMs = REQUEST_TIMEOUT_MS): Promise<RsaKeySet> {
  if (rsa) return Promise.resolve(rsa);
  if (!rsaPending) {
    const pending: Promise<RsaKeySet> = loadRsaKey(timeoutMs)
      .then((k) => {
        if (rsaPending === pending) rsa = k;
        return k;
      })
      .finally(() => {
        if (rsaPending === pending) rsaPending = null;
      });
    rsaPending = pending;
  }
  return rsaPending;
}

export async function getClientKey(now = Date.now()): Promise<ClientEnvelopeKey> {
  if (clientKey && isClientKeyFresh(clientKey, now)) return clientKey;
  if (!clientPending) {
    const pending: Promise<ClientEnvelopeKey> = ensureRsaKey()
      .then((k) => createClientKey(k.keyId, k.publicKey, now))
      .then((key) => {
        if (clientPending === pending) clientKey = key;
        return key;
      })
      .finally(() => {
        if (clientPending === pending) clientPending = null;
      });
    clientPending = pending;
  }
  return clientPending;
}

/**
 * After a 422: forget K and the RSA key, so the next call refetches the key set. A fetch still
 * under way is forgotten too: it may answer the key that was just refused.
 */
export function dropKeys(): void {
  forgetStoredRsaKey();
  rsa = null;
  clientKey = null;
  rsaPending = null;
  clientPending = null;
}
