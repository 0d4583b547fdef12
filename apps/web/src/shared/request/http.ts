import { sealRequest } from '@portal/contract/envelope';
import {
  API_PREFIX,
  PDF_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  STATUS,
  type ApiResponse,
  type Page,
} from '@portal/contract/api';
import { getToken } from '../auth/token';
import { useSessionStore } from '../session/session-store';
import {
  confirmAction,
  showClosableWarning,
  showError,
  showSuccess,
  showWarning,
  type ConfirmOptions,
} from '../ui/feedback-lazy';
import { dropKeys, getClientKey } from './envelope-keys';
import { beginLoading, endLoading } from './loading-store';

/**
 * The request layer (docs/protocol.md "The web client"): every call is a POST under /api (a poll's
 * conditional GET aside) with credentials, a 60 s timeout (PDF 50 s), the Bearer token when one exists, and the encrypted,
 * signed envelope. Failures are shown as that section says and reject with an ApiError.
 */

const NOT_MODIFIED = 304;

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  /** Ids as query parameters (`?bizCode=000000000042`). */
  query?: Query;
  /** Milliseconds; default 60 000, or 50 000 with `pdf`. */
  timeout?: number;
  /** A PDF request (50 s timeout). */
  pdf?: boolean;
  /** false for the two calls without an envelope (RSA key, captcha). Default true. */
  envelope?: boolean;
  /** false to skip the global loading overlay (background calls). Default true. */
  loading?: boolean;
  /** The password change: an answer without `status` shows its msg as an error. */
  missingStatusAsError?: boolean;
  /**
   * A first line for the warning of a refused call (the update wrapper's 操作失败！, docs/protocol.md
   * "The web client"): the server's msg follows on the next line.
   */
  failureTitle?: string;
  signal?: AbortSignal;
}

export type ApiErrorKind = 'api' | 'network' | 'timeout' | 'session';

export class ApiError<D = unknown> extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly data: D | undefined;
  constructor(kind: ApiErrorKind, status: number, msg: string, data?: D) {
    super(msg);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.data = data;
  }
}

type SessionExpiredHandler = () => void;

/** Said on the way to login when a 403 answer carries no msg of its own. */
export const SESSION_ENDED_MESSAGE = '登录已失效，请重新登录';

function defaultSessionExpired(): void {
  const here = `${window.location.pathname}${window.location.search}`;
  if (window.location.pathname === '/login') return;
  window.location.assign(`/login?redirect=${encodeURIComponent(here)}`);
}

let onSessionExpired: SessionExpiredHandler = defaultSessionExpired;
let onUpdated: () => void = () => undefined;
const updatedListeners = new Set<() => void>();
let expiring = false;

/** The app installs its router-aware handler (tags closed, client-side redirect to /login). */
export function setSessionExpiredHandler(handler: SessionExpiredHandler): void {
  onSessionExpired = handler;
}

/** The app refreshes its lists after every successful change (the rows' versions moved). */
export function setUpdatedHandler(handler: () => void): void {
  onUpdated = handler;
}

/** Also told of every successful change (the unsaved-input guard: a saved editor is clean). */
export function addUpdatedListener(listener: () => void): () => void {
  updatedListeners.add(listener);
  return () => updatedListeners.delete(listener);
}

/** A revoked or expired session (status 403): to login, told why (the server's msg). */
function handleNoSession(msg: string): void {
  useSessionStore.getState().resetSession();
  if (expiring) return;
  expiring = true;
  showWarning(msg);
  // Several calls may answer 403 at once: one redirect is enough.
  setTimeout(() => {
    expiring = false;
  }, 1000);
  onSessionExpired();
}

export function buildUrl(path: string, query?: Query): string {
  const base = path.startsWith(API_PREFIX + '/') ? path : `${API_PREFIX}${path}`;
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    params.append(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${base}${base.includes('?') ? '&' : '?'}${qs}` : base;
}

function timeoutSignal(
  ms: number,
  outer?: AbortSignal,
): { signal: AbortSignal; expired: Promise<never>; timedOut: () => boolean; done: () => void } {
  const ctrl = new AbortController();
  let fired = false;
  let expire: (err: Error) => void = () => undefined;
  // Rejects when the time is up: for waits that take no signal (the shared envelope key).
  const expired = new Promise<never>((_, reject) => (expire = reject));
  expired.catch(() => undefined);
  const timer = setTimeout(() => {
    fired = true;
    ctrl.abort();
    expire(new Error(`timeout of ${ms}ms exceeded`));
  }, ms);
  const onOuter = () => ctrl.abort();
  outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: ctrl.signal,
    expired,
    timedOut: () => fired,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/** How `send` sends: a POST, or the conditional GET of a poll. */
interface SendOptions extends RequestOptions {
  method?: 'POST' | 'GET';
  ifNoneMatch?: string;
}

/**
 * Sends one POST or GET (with the envelope unless told otherwise) and reads its answer with `read`, both
 * under the call's timeout: an answer whose body never completes times out like one that never
 * starts (docs/architecture.md, "Every call ends"). Retries once after a 422.
 */
async function send<R>(
  path: string,
  body: unknown,
  opts: SendOptions,
  accept: string,
  read: (res: Response) => Promise<R>,
  retried = false,
): Promise<{ res: Response; answer: R }> {
  const url = buildUrl(path, opts.query);
  const method = opts.method ?? 'POST';
  const headers: Record<string, string> = { accept };
  if (opts.ifNoneMatch) headers['if-none-match'] = opts.ifNoneMatch;
  let payload: string | undefined;
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const ms = opts.timeout ?? (opts.pdf ? PDF_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  const t = timeoutSignal(ms, opts.signal);
  let res: Response;
  let answer: R;
  try {
    if (opts.envelope === false) {
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    } else {
      const key = await Promise.race([getClientKey(), t.expired]);
      const sealed = await sealRequest(key, method, url, body);
      Object.assign(headers, sealed.headers);
      payload = sealed.body;
    }
    res = await fetch(url, {
      method,
      headers,
      // The poll keeps its own tag and answer: nothing of the user's goes into the HTTP cache.
      ...(method === 'GET' ? { cache: 'no-store' as const } : {}),
      body: payload,
      credentials: 'include',
      signal: t.signal,
    });
    if (res.status === STATUS.badEnvelope && opts.envelope !== false && !retried) {
      // The key may be too old or from a rotated pair: fetch a fresh key set once
      // (docs/protocol.md "422 and the one retry").
      t.done();
      dropKeys();
      return send(path, body, opts, accept, read, true);
    }
    answer = await read(res);
  } catch (err) {
    if (t.timedOut()) throw new ApiError('timeout', 0, `timeout of ${ms}ms exceeded`);
    if (opts.signal?.aborted) throw err;
    if (err instanceof ApiError) throw err;
    throw new ApiError('network', 0, err instanceof Error && err.message ? err.message : 'Network Error');
  } finally {
    t.done();
  }
  return { res, answer };
}

async function readEnvelope<T>(res: Response): Promise<ApiResponse<T> & { status?: number }> {
  const text = await res.text();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') return parsed as ApiResponse<T>;
  } catch {
    // not JSON: fall through
  }
  return {
    status: res.status,
    ok: res.ok,
    msg: res.ok ? '' : `Request failed with status code ${res.status}`,
  };
}

/** An answer that is not a success, shown and rejected (docs/protocol.md "The web client"). */
function failAnswer<T>(body: Partial<ApiResponse<T>>, httpStatus: number, opts: RequestOptions): never {
  if (opts.missingStatusAsError && typeof body.status !== 'number') {
    const msg = body.msg || 'Error';
    showError(msg);
    throw new ApiError('api', httpStatus, msg, body.data);
  }
  const status = typeof body.status === 'number' ? body.status : httpStatus;
  if (status === STATUS.noSession) {
    handleNoSession(body.msg || SESSION_ENDED_MESSAGE);
    throw new ApiError('session', status, body.msg || 'Error', body.data);
  }
  const msg = body.msg || 'Error';
  showClosableWarning(opts.failureTitle ? `${opts.failureTitle}\n${msg}` : msg);
  throw new ApiError('api', status, msg, body.data);
}

function isSuccess(body: Partial<ApiResponse>, httpStatus: number): boolean {
  const status = typeof body.status === 'number' ? body.status : httpStatus;
  return status === STATUS.ok;
}

/** A network error: a warning with the error's message (also for a failed key fetch). */
function networkFailure(err: unknown): never {
  if (err instanceof ApiError) {
    showWarning(err.message);
    throw err;
  }
  if (err instanceof Error && err.name !== 'AbortError') {
    showWarning(err.message || 'Network Error');
    throw new ApiError('network', 0, err.message || 'Network Error');
  }
  throw err;
}

/**
 * The raw answer envelope of a successful call (status 200). Anything else has been reported to
 * the user and rejects with an ApiError.
 */
export async function request<T>(
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const loading = opts.loading !== false;
  if (loading) beginLoading();
  try {
    let res: Response;
    let answer: Awaited<ReturnType<typeof readEnvelope<T>>>;
    try {
      ({ res, answer } = await send(path, body, opts, 'application/json', (r) => readEnvelope<T>(r)));
    } catch (err) {
      return networkFailure(err);
    }
    const statusMissing = opts.missingStatusAsError && typeof answer.status !== 'number';
    if (statusMissing || !isSuccess(answer, res.status)) return failAnswer(answer, res.status, opts);
    return answer;
  } finally {
    if (loading) endLoading();
  }
}

/** A call whose result is `data`. */
export async function post<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
  const answer = await request<T>(path, body, opts);
  return answer.data as T;
}

/** A poll's last answer and the ETag it came with. */
export interface Revalidated<T> {
  etag: string | null;
  data: T;
}

/**
 * A GET the server may answer 304 (docs/protocol.md "Conditional GET"): given the previous answer,
 * an unchanged one costs no body and hands the previous object back as it was, so nothing that
 * shows it renders again. Failures are reported as for `request`.
 */
export async function getRevalidated<T>(
  path: string,
  previous: Revalidated<T> | undefined,
  opts: RequestOptions = {},
): Promise<Revalidated<T>> {
  const loading = opts.loading !== false;
  if (loading) beginLoading();
  try {
    const ifNoneMatch = previous?.etag ?? undefined;
    let res: Response;
    let answer: Awaited<ReturnType<typeof readEnvelope<T>>> | 'unchanged';
    try {
      ({ res, answer } = await send<typeof answer>(
        path,
        undefined,
        { ...opts, method: 'GET', ...(ifNoneMatch ? { ifNoneMatch } : {}) },
        'application/json',
        (r) =>
          r.status === NOT_MODIFIED && previous ? Promise.resolve('unchanged' as const) : readEnvelope<T>(r),
      ));
    } catch (err) {
      return networkFailure(err);
    }
    if (answer === 'unchanged') return previous!;
    if (!isSuccess(answer, res.status)) return failAnswer(answer, res.status, opts);
    return { etag: res.headers.get('etag'), data: answer.data as T };
  } finally {
    if (loading) endLoading();
  }
}

export interface ListParams {
  pageNum: number;
  pageSize: number;
  [filter: string]: unknown;
}

/** List wrappers return the response body (`{status, ok, msg, data: {list,total,…}}`). */
export function fetchList<T>(
  path: string,
  params: ListParams,
  opts?: RequestOptions,
): Promise<ApiResponse<Page<T>>> {
  return request<Page<T>>(path, params, opts);
}

export interface UpdateOptions extends RequestOptions {
  /** Ask first (antd Modal.confirm); cancelling does nothing. */
  confirm?: string | ConfirmOptions;
  /** Override the success text (default 操作成功！). */
  successText?: string;
}

export type UpdateResult<T> =
  | { confirmed: false; ok: false; data: undefined }
  | { confirmed: true; ok: boolean; data: T | undefined; msg: string };

export const UPDATE_MESSAGES = { success: '操作成功！', failure: '操作失败！' } as const;

/**
 * Update wrapper: optional confirmation, then 操作成功！ when the answer is ok and
 * 操作失败！ (5 s) when it is not. A refusal (4xx/5xx but 403) says 操作失败！ with the server's msg
 * on the next line (5 s, closable) and rejects, as every failed call does.
 */
export async function update<T = unknown>(
  path: string,
  body?: unknown,
  opts: UpdateOptions = {},
): Promise<UpdateResult<T>> {
  const { confirm, successText, ...rest } = opts;
  if (confirm !== undefined && !(await confirmAction(confirm)))
    return { confirmed: false, ok: false, data: undefined };
  let answer: ApiResponse<T>;
  try {
    answer = await request<T>(path, body, { failureTitle: UPDATE_MESSAGES.failure, ...rest });
  } catch (err) {
    // A refusal (409 已被他人修改, 审批人已处理, …) usually means the row moved under the user:
    // the lists fetch again so the row shows its state now (docs/architecture.md, refetch rule).
    if (err instanceof ApiError && err.kind === 'api') onUpdated();
    throw err;
  }
  if (answer.ok) {
    showSuccess(successText ?? UPDATE_MESSAGES.success);
    onUpdated();
    for (const listener of updatedListeners) listener();
  } else showWarning(UPDATE_MESSAGES.failure, 5);
  return { confirmed: true, ok: !!answer.ok, data: answer.data, msg: answer.msg };
}

function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // malformed encoding: try the plain form
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ? plain[1].trim() : fallback;
}

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface ExportOptions extends RequestOptions {
  /** Name of the saved file when the answer does not name one. */
  fileName?: string;
  /** false to get the blob back without saving it. Default true. */
  save?: boolean;
}

/**
 * Export: a POST with the Bearer token (and the envelope) answered by a blob. A blob that
 * is really JSON is an error answer: its msg is shown as a warning and the call rejects.
 */
export async function exportFile(path: string, body?: unknown, opts: ExportOptions = {}): Promise<Blob> {
  const { fileName = 'download', save = true, ...rest } = opts;
  const loading = rest.loading !== false;
  if (loading) beginLoading();
  try {
    let res: Response;
    let blob: Blob;
    try {
      ({ res, answer: blob } = await send(path, body, rest, '*/*', (r) => r.blob()));
    } catch (err) {
      return networkFailure(err);
    }
    const type = (res.headers.get('content-type') ?? blob.type).toLowerCase();
    if (type.includes('application/json') || !res.ok) {
      const answer = await readEnvelope<unknown>(new Response(blob, { status: res.status }));
      if (answer.status === STATUS.noSession || res.status === STATUS.noSession) {
        handleNoSession(answer.msg || SESSION_ENDED_MESSAGE);
        throw new ApiError('session', STATUS.noSession, answer.msg || 'Error');
      }
      const msg = answer.msg || 'Error';
      showWarning(msg);
      throw new ApiError(
        'api',
        typeof answer.status === 'number' ? answer.status : res.status,
        msg,
        answer.data,
      );
    }
    if (save) saveBlob(blob, fileNameFrom(res.headers.get('content-disposition'), fileName));
    return blob;
  } finally {
    if (loading) endLoading();
  }
}
