/** The answer envelope (docs/protocol.md "The answer"). */
export interface ApiResponse<T = unknown> {
  status: number;
  ok: boolean;
  msg: string;
  data?: T;
}

export const STATUS = {
  ok: 200,
  badInput: 400,
  forbiddenCode: 401,
  noSession: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  badEnvelope: 422,
  tooMany: 429,
  fault: 500,
  /** A server draining for a restart (docs/operations.md); a proxy passes the call to another server. */
  unavailable: 503,
} as const;

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

/** The base prefix of every call (docs/protocol.md "Paths and methods"). */
export const API_PREFIX = '/api';
export const REQUEST_TIMEOUT_MS = 60_000;
export const PDF_TIMEOUT_MS = 50_000;
