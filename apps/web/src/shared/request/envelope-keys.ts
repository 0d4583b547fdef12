import {
  createClientKey,
  importRsaPublicKey,
  isClientKeyFresh,
  type ClientEnvelopeKey,
} from '@portal/contract/envelope';
import { API_PREFIX, type ApiResponse } from '@portal/contract/api';
import { AUTH_PATHS } from '@portal/contract/session';

/**
 * The RSA key set (PROTOCOL.md §3 step 1) and the client envelope key K, reused while fresh
 * (up to the 10-minute window of `isClientKeyFresh`). A 422 answer drops both (`dropKeys`).
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

async function fetchRsaKey(): Promise<RsaKeySet> {
  const res = await fetch(`${API_PREFIX}${AUTH_PATHS.rsaKey}`, { method: 'POST', credentials: 'include' });
  let body: ApiResponse<{ keyId: string; publicKey: string }> | undefined;
  try {
    body = (await res.json()) as ApiResponse<{ keyId: string; publicKey: string }>;
  } catch {
    body = undefined;
  }
  if (!res.ok || !body?.data?.publicKey) {
    throw new RsaKeyError(body?.msg || `Request failed with status code ${res.status}`);
  }
  return { keyId: body.data.keyId, publicKey: await importRsaPublicKey(body.data.publicKey) };
}

export function hasRsaKey(): boolean {
  return rsa !== null;
}

/** SPEC §2.1: the RSA key set is fetched when absent (once, shared by concurrent callers). */
export function ensureRsaKey(): Promise<RsaKeySet> {
  if (rsa) return Promise.resolve(rsa);
  if (!rsaPending) {
    rsaPending = fetchRsaKey()
      .then((k) => {
        rsa = k;
        return k;
      })
      .finally(() => {
        rsaPending = null;
      });
  }
  return rsaPending;
}

export async function getClientKey(now = Date.now()): Promise<ClientEnvelopeKey> {
  if (clientKey && isClientKeyFresh(clientKey, now)) return clientKey;
  if (!clientPending) {
    clientPending = ensureRsaKey()
      .then((k) => createClientKey(k.keyId, k.publicKey, now))
      .then((key) => {
        clientKey = key;
        return key;
      })
      .finally(() => {
        clientPending = null;
      });
  }
  return clientPending;
}

/** After a 422: forget K and the RSA key, so the next call refetches the key set. */
export function dropKeys(): void {
  rsa = null;
  clientKey = null;
}
