import { resolve } from 'node:path';
import { currentPoolSize, hashSlots } from './threadpool';
import { PASSWORD_HASH_COST, type HashCost } from './auth/password-hash';

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
  /**
   * The parent domain of the token and layout cookies (COOKIE_DOMAIN, e.g. `.example.com`), served
   * to the page in /portal-config.js; unset = the page's own host.
   */
  cookieDomain: string | undefined;
  /** Requests per minute per user (per IP for calls without a session); 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Requests per minute per client IP, whoever is signed in; 0 turns the limit off. */
  rateLimitPerIpPerMinute: number;
  /** Business date override (YYYY-MM-DD); unset = today in Asia/Shanghai (docs/business-date.md). */
  businessDate: string | undefined;
  /**
   * CHROMIUM_PATH: the headless Chromium for PDFs, `off` (CHROMIUM_OFF), or unset: Debian's, else
   * the bundled one (platform/chromium.ts).
   */
  chromiumPath: string | undefined;
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
   * The cost of every password hash the portal makes. Not a setting: `loadConfig` always answers
   * PASSWORD_HASH_COST, whatever the environment holds; only a test portal's config is given a
   * lower one (testing/harness.ts, SECURITY.md "Sign-in").
   */
  passwordHashCost: HashCost;
  /**
   * Defaults of 参数设置 at a database's first start (docs/operations.md "Settings an administrator
   * changes"); later the stored values rule, and the session and upload fields above follow them.
   */
  companyName: string;
  companyAddress: string | undefined;
  companyRegNo: string | undefined;
  logRetentionDays: number;
  /** `/metrics` answers only with this bearer token; unset, it is not served (docs/operations.md). */
  metricsToken: string | undefined;
  /**
   * After SIGTERM the server answers 503 (not ready) for this long before it stops listening, so a
   * load balancer that polls /readyz takes it out first; the calls in flight finish either way.
   */
  drainGraceMs: number;
  /**
   * How often each server looks for a scheduled job whose time has come (docs/operations.md
   * "Scheduled jobs"); 0 = this server runs no scheduled job (立即执行 still works).
   */
  jobTickMs: number;
  /** Nightly dumps of the embedded database kept in DATA_DIR/backups (older ones are deleted). */
  backupKeep: number;
  /** On PostgreSQL: the newest pg_dump in DATA_DIR/backups may be this old before the check fails. */
  backupMaxAgeHours: number;
  /** S3-compatible object storage for uploaded files; undefined = DATA_DIR/files. */
  s3: S3Config | undefined;
}

/** S3-compatible object storage (AWS S3, MinIO, Ceph, OSS/COS S3 endpoints), path-style URLs. */
export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket. */
  prefix: string;
  /** Longest wait for one S3 call to connect, and to answer or move data, before it is retried. */
  timeoutMs: number;
  /** Tries per call (the first and the retries), with the SDK's backoff between them. */
  maxAttempts: number;
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

/**
 * A positive decimal (a fraction of an hour shortens rotation for soak runs), or with `zero` a
 * non-negative one (a drain grace of 0 s).
 */
function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, zero = false): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !zero))
    throw new Error(`${name} must be a ${zero ? 'non-negative' : 'positive'} number, got "${raw}"`);
  return n;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on' || raw === 'true') return true;
  if (raw === 'off' || raw === 'false') return false;
  throw new Error(`${name} must be "on" or "off", got "${raw}"`);
}

/** A cookie's Domain: a host name, optionally with a leading dot; anything else stops the start. */
function cookieDomain(raw: string | undefined): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (!/^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(v))
    throw new Error(`COOKIE_DOMAIN must be a domain such as ".example.com", got "${raw}"`);
  return v.toLowerCase();
}

function trustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return raw;
}

/**
 * /metrics answers outside the API's rate limits, so its bearer must not be guessable: at least 32
 * characters (SECURITY.md "Metrics"); unset, /metrics is not served.
 */
export const METRICS_TOKEN_MIN_LENGTH = 32;

function metricsToken(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (raw.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(raw))
    throw new Error(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces`);
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
    cookieDomain: cookieDomain(env.COOKIE_DOMAIN),
    businessDate: env.BUSINESS_DATE || undefined,
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 1200),
    rateLimitPerIpPerMinute: int(env, 'RATE_LIMIT_PER_IP_PER_MINUTE', 6000),
    chromiumPath: env.CHROMIUM_PATH || undefined,
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
    metricsToken: metricsToken(env.METRICS_TOKEN),
    drainGraceMs: Math.round(positive(env, 'DRAIN_GRACE_SECONDS', 5, true) * 1000),
    jobTickMs: int(env, 'JOB_TICK_MS', 10_000),
    backupKeep: Math.max(1, int(env, 'BACKUP_KEEP', 7)),
    backupMaxAgeHours: positive(env, 'BACKUP_MAX_AGE_HOURS', 26),
    s3: s3Config(env),
    passwordHashCost: PASSWORD_HASH_COST,
  };
}

/** S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY together, or none of them. */
function s3Config(env: NodeJS.ProcessEnv): S3Config | undefined {
  const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
  if (!S3_ENDPOINT && !S3_BUCKET) return undefined;
  if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY)
    throw new Error(
      'S3: object storage needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together (or none of them for local files)',
    );
  return {
    endpoint: S3_ENDPOINT.replace(/\/+$/, ''),
    bucket: S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    prefix: (env.S3_PREFIX ?? 'files/').replace(/^\/+/, ''),
    timeoutMs: Math.max(1, int(env, 'S3_TIMEOUT_SECONDS', 60)) * 1000,
    maxAttempts: Math.max(1, int(env, 'S3_MAX_ATTEMPTS', 3)),
  };
}
