import { resolve } from 'node:path';
import { currentPoolSize, hashSlots } from './threadpool';

/** `CHROMIUM_PATH=off`: the office runs without print PDFs (docs/operations.md). */
export const CHROMIUM_OFF = 'off';

/** Settings from the environment (README "Settings"); one object, read once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  envelope: 'required' | 'optional';
  redisUrl: string | undefined;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  rsaRotationMs: number;
  allowSelfApproval: boolean;
  uploadLimitBytes: number;
  /** Where the built SPA lives; served on the same port when present. */
  webDist: string | undefined;
  demoData: boolean;
  logLevel: string;
  voucherSiteUrl: string | undefined;
  dwSiteUrl: string | undefined;
  /** Requests per minute per user (per IP for calls without a session); 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Requests per minute per client IP, whoever is signed in; 0 turns the limit off. */
  rateLimitPerIpPerMinute: number;
  /** Business date override (YYYY-MM-DD); unset = today in Asia/Shanghai (docs/business-date.md). */
  businessDate: string | undefined;
  /** Headless Chromium for PDFs (Debian's package by default), or `off` (CHROMIUM_OFF). */
  chromiumPath: string;
  /** A PDF render still running after this is abandoned (below the client's 50 s PDF timeout). */
  pdfTimeoutMs: number;
  /**
   * Behind a TLS-terminating proxy: believe its X-Forwarded-For/-Proto (client IP for limits,
   * https for HSTS). `true` trusts any hop, or a comma-separated list of proxy addresses/CIDRs.
   */
  trustProxy: boolean | string;
  /** Strict-Transport-Security on answers to requests that arrived over HTTPS (SECURITY.md). */
  hsts: boolean;
  /** Login attempts per minute per client IP / per user name (SECURITY.md "Sign-in"); 0 = off. */
  loginPerIpPerMinute: number;
  loginPerUserPerMinute: number;
  /** Captchas drawn per minute per client IP (SECURITY.md "Sign-in"); 0 = off. */
  captchaPerIpPerMinute: number;
  /** Password hashes running at once, and waiting; a login beyond both answers 429 at once. */
  loginHashConcurrency: number;
  loginHashQueue: number;
  /**
   * Defaults of 参数设置 at a database's first start (docs/operations.md "Settings an administrator
   * changes"); later the stored values rule, and the session and upload fields above follow them.
   */
  companyName: string;
  companyAddress: string | undefined;
  companyRegNo: string | undefined;
  logRetentionDays: number;
}

/**
 * Default hashes at once: one core in two (scrypt is CPU-bound), and never more than the thread
 * pool minus two, so file I/O and RSA keep threads when the pool was not sized (platform/threadpool.ts).
 */
/**
 * Logins waiting per running hash. A hash takes about 0.1 s, so 32 waiting is at most ~3 s in line:
 * an office whose staff all sign in at nine is served, not refused (eight at once got 429 with a
 * queue of 4); a flood is still cut off by the per-IP and per-name limits and by this bound.
 */
const LOGIN_QUEUE_PER_HASH = 32;

function defaultHashConcurrency(): number {
  return Math.max(1, Math.min(hashSlots(), currentPoolSize() - 2));
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** A positive decimal (a fraction of an hour shortens rotation for soak runs). */
function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on' || raw === 'true') return true;
  if (raw === 'off' || raw === 'false') return false;
  throw new Error(`${name} must be "on" or "off", got "${raw}"`);
}

function trustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const envelope = env.API_ENVELOPE ?? 'required';
  if (envelope !== 'required' && envelope !== 'optional') {
    throw new Error(`API_ENVELOPE must be "required" or "optional", got "${envelope}"`);
  }
  const minutes = 60_000;
  const hashConcurrency = Math.max(1, int(env, 'LOGIN_HASH_CONCURRENCY', defaultHashConcurrency()));
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    envelope,
    redisUrl: env.REDIS_URL || undefined,
    sessionIdleMs: int(env, 'SESSION_IDLE_MINUTES', 120) * minutes,
    sessionAbsoluteMs: int(env, 'SESSION_ABSOLUTE_MINUTES', 720) * minutes,
    rsaRotationMs: Math.round(positive(env, 'RSA_ROTATION_HOURS', 24) * 60 * minutes),
    allowSelfApproval: env.ALLOW_SELF_APPROVAL === 'true',
    uploadLimitBytes: int(env, 'UPLOAD_LIMIT_MB', 50) * 1024 * 1024,
    webDist: env.WEB_DIST === '' ? undefined : env.WEB_DIST,
    demoData: env.DEMO_DATA !== 'off',
    logLevel: env.LOG_LEVEL || 'info',
    voucherSiteUrl: env.VOUCHER_SITE_URL || undefined,
    dwSiteUrl: env.DW_SITE_URL || undefined,
    businessDate: env.BUSINESS_DATE || undefined,
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 1200),
    rateLimitPerIpPerMinute: int(env, 'RATE_LIMIT_PER_IP_PER_MINUTE', 6000),
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    pdfTimeoutMs: int(env, 'PDF_TIMEOUT_SECONDS', 45) * 1000,
    trustProxy: trustProxy(env.TRUST_PROXY),
    hsts: onOff(env, 'HSTS', true),
    loginPerIpPerMinute: int(env, 'LOGIN_RATE_PER_IP_PER_MINUTE', 60),
    loginPerUserPerMinute: int(env, 'LOGIN_RATE_PER_USER_PER_MINUTE', 10),
    captchaPerIpPerMinute: int(env, 'CAPTCHA_RATE_PER_IP_PER_MINUTE', 60),
    loginHashConcurrency: hashConcurrency,
    loginHashQueue: int(env, 'LOGIN_HASH_QUEUE', LOGIN_QUEUE_PER_HASH * hashConcurrency),
    companyName: env.COMPANY_NAME || '本公司',
    companyAddress: env.COMPANY_ADDRESS || undefined,
    companyRegNo: env.COMPANY_REG_NO || undefined,
    logRetentionDays: int(env, 'LOG_RETENTION_DAYS', 180),
  };
}
