import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { API_PREFIX } from '@portal/contract/api';
import { AUTH_PATHS, LOGIN_MESSAGES } from '@portal/contract/auth';
import { tooMany } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The user a call without a session header counts against (SECURITY.md "Rate limits"): the owner
     * of the download token it presents, set by the files module.
     */
    rateUserId?: number;
  }
}

/**
 * Security headers (SECURITY.md "Headers"): a CSP without inline scripts; frame-ancestors 'self' because the
 * portal embeds its own pages (docs/architecture.md "The web shell") and nobody else may frame it.
 */
export async function installSecurity(app: FastifyInstance, config: Config, redis?: Redis): Promise<void> {
  const frameAncestors = [
    "'self'",
    ...[config.voucherSiteUrl, config.dwSiteUrl]
      .filter((u): u is string => !!u)
      .map((u) => new URL(u).origin),
  ];
  const headers = await helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd injects component styles at run time (CSS-in-JS).
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors,
      },
    },
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    // HSTS is ours, below: helmet would send it over plain HTTP too.
    hsts: false,
  });
  app.addHook('onRequest', (_req, reply, done) => {
    void reply.headers(headers);
    done();
  });

  // Strict-Transport-Security only on answers to HTTPS requests (SECURITY.md "Headers"): behind a
  // TLS-terminating proxy that is X-Forwarded-Proto, believed only with TRUST_PROXY. Never over
  // plain HTTP, where browsers ignore it and a laptop start must not be pinned to HTTPS.
  if (config.hsts) {
    app.addHook('onSend', async (req, reply) => {
      if (req.protocol === 'https') void reply.header('strict-transport-security', 'max-age=31536000');
    });
  }

  // Every limit below is one of this plugin's (none of its own is global).
  await app.register(rateLimit, { global: false, timeWindow: 60_000, ...(redis ? { redis } : {}) });

  // Signed-in calls count per user (all their sessions together) and per IP, the IP limit wider
  // since an office behind one NAT shares an address. Calls without a user count in their address's
  // anonymous allowance, which therefore never refuses a signed-in user; the sign-in calls have
  // treatments of their own (installSignInLimits), so no flood of anonymous calls stops a sign-in
  // (SECURITY.md "Rate limits"). Checked once every onRequest hook has run: the session is resolved
  // (platform/http/app.ts), and so is the owner of a download token (modules/files).
  const signedIn = [
    ...perMinute(app, config.rateLimitPerMinute, (req) => `u:${callerId(req) ?? ''}`),
    ...perMinute(app, config.rateLimitPerIpPerMinute, (req) => `ip:${req.ip}`),
  ];
  const anonymous = perMinute(app, config.rateLimitPerMinute, (req) => `anon:${req.ip}`);
  app.addHook('preParsing', async (req, reply) => {
    // API calls only. The web client's files (some 60 chunks per cold page) are not calls: counted,
    // an office behind one address ran out of its anonymous allowance at a busy start of day,
    // the chunks answered 429 and screens stayed blank (the browser tests' 30 s "stalls").
    if (!req.url.startsWith(`${API_PREFIX}/`) || SIGN_IN_URLS.has(req.routeOptions.url ?? '')) return;
    await enforce(callerId(req) === undefined ? anonymous : signedIn, req, reply, '请求过于频繁，请稍后再试');
  });
}

/**
 * The headers helmet gives these options, read once from a probe server. @fastify/helmet builds
 * helmet's middlewares again for every request (parsing the CSP directives each time: 1 % of the
 * server's CPU under load, bench/README.md "The envelope's cost"), while without CSP nonces, which
 * the portal does not use, the headers depend on the options alone.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = async (withHelmet: boolean) => {
    const server = Fastify();
    if (withHelmet) await server.register(helmet, options);
    server.get('/', async () => '');
    const res = await server.inject('/');
    await server.close();
    return res.headers;
  };
  const bare = await probe(false);
  const helmeted = await probe(true);
  return Object.fromEntries(
    Object.entries(helmeted)
      .filter(([name, value]) => bare[name] === undefined && typeof value === 'string')
      .map(([name, value]) => [name, value as string]),
  );
}

type Limit = ReturnType<FastifyInstance['createRateLimit']>;

/** `max` calls a minute per key; none when `max` is 0 (the setting turns the limit off). */
function perMinute(app: FastifyInstance, max: number, key: (req: FastifyRequest) => string): Limit[] {
  return max > 0 ? [app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: key })] : [];
}

/** Counts the call in each limit; past one, 429 with `message` and when to try again. */
async function enforce(limits: Limit[], req: FastifyRequest, reply: FastifyReply, message: string) {
  for (const limit of limits) {
    const verdict = await limit(req);
    if (!verdict.isAllowed && verdict.isExceeded) {
      void reply.header('retry-after', String(verdict.ttlInSeconds));
      throw tooMany(message);
    }
  }
}

/** The user a call counts against: its session's, or the owner of the download token it spends. */
function callerId(req: FastifyRequest): number | undefined {
  return req.user?.userId ?? req.rateUserId;
}

const KEY_URL = `${API_PREFIX}${AUTH_PATHS.rsaKey}`;
const CAPTCHA_URL = `${API_PREFIX}${AUTH_PATHS.captcha}`;
const LOGIN_URL = `${API_PREFIX}${AUTH_PATHS.login}`;
/** The calls of the sign-in page, outside the API limits (installSignInLimits). */
const SIGN_IN_URLS = new Set([KEY_URL, CAPTCHA_URL, LOGIN_URL]);

/**
 * The sign-in page's calls (SECURITY.md "Sign-in" and "Rate limits"), each with a treatment of its own
 * so that a flood of one kind does not starve the others. The envelope key is one answer for
 * everyone, held in memory: like the web client's files it is not counted, so nobody can use it up
 * for an address. Captchas (a row each) are counted per client IP. Logins per client IP and per
 * user name, apart from the API limits: a login costs an RSA decryption and a password hash,
 * thousands of times a plain call. The IP limits are checked as the request arrives, before the
 * envelope is opened: a flood from one address past its limit costs no RSA work on the shared
 * thread pool. The user name is inside the envelope, so its limit is checked once the body is
 * open, before any database work or hash. Call after installSecurity has registered the
 * rate-limit plugin.
 */
export function installSignInLimits(app: FastifyInstance, config: Config): void {
  const only =
    (url: string, message: string, limits: Limit[]) => async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.routeOptions.url === url) await enforce(limits, req, reply, message);
    };
  const captchaPerIp = perMinute(app, config.captchaPerIpPerMinute, (req) => `captcha-ip:${req.ip}`);
  const loginPerIp = perMinute(app, config.loginPerIpPerMinute, (req) => `login-ip:${req.ip}`);
  const loginPerUser = perMinute(
    app,
    config.loginPerUserPerMinute,
    (req) => `login-user:${loginName(req.body)}`,
  );
  app.addHook('onRequest', only(CAPTCHA_URL, CAPTCHA_TOO_FREQUENT, captchaPerIp));
  app.addHook('onRequest', only(LOGIN_URL, LOGIN_MESSAGES.tooFrequent, loginPerIp));
  app.addHook('preHandler', only(LOGIN_URL, LOGIN_MESSAGES.tooFrequent, loginPerUser));
}

const CAPTCHA_TOO_FREQUENT = '获取验证码过于频繁，请稍后再试';

/** The user name as the login compares it (trimmed, lower case). */
function loginName(body: unknown): string {
  const name = (body as { userName?: unknown } | undefined)?.userName;
  return typeof name === 'string' ? name.trim().toLowerCase() : '';
}
