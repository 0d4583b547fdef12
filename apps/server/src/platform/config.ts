import { resolve } from 'node:path';

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
  /** Business date override (YYYY-MM-DD); unset = today in Asia/Shanghai (DOMAIN.md). */
  businessDate: string | undefined;
  /** Headless Chromium for PDFs (Debian's package by default). */
  chromiumPath: string;
  /** A PDF render still running after this is abandoned (below the client's 50 s PDF timeout). */
  pdfTimeoutMs: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const envelope = env.API_ENVELOPE ?? 'required';
  if (envelope !== 'required' && envelope !== 'optional') {
    throw new Error(`API_ENVELOPE must be "required" or "optional", got "${envelope}"`);
  }
  const minutes = 60_000;
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
    rsaRotationMs: int(env, 'RSA_ROTATION_HOURS', 24) * 60 * minutes,
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
  };
}
