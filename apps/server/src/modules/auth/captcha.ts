import { createHash, randomBytes, randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { captchas } from '../../platform/auth/schema';

// No 0/O, 1/I/L: people read these images.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const TTL_MS = 5 * 60_000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

interface DrawOptions {
  width: number;
  height: number;
  fontSize: number;
  noise: number;
  color: boolean;
  background: string;
}

// svg-captcha's main export is createCaptcha(text, options) -> SVG (its lib/index.js); its type
// declarations list only the helpers that draw their own text with Math.random, whose state the
// noise coordinates in the image would give away. The answer is ours, from node:crypto.
const drawCaptcha = createRequire(import.meta.url)('svg-captcha') as (
  text: string,
  options: DrawOptions,
) => string;

/**
 * Four characters as an SVG data URI (docs/protocol.md "Sessions"). Each glyph is a distorted outline path
 * of a font (svg-captcha), shuffled among noise curves: no <text> element or character of the
 * answer is in the image, so it cannot be read out of the markup (SECURITY.md "Sign-in").
 */
function drawSvg(answer: string): string {
  const svg = drawCaptcha(answer, {
    width: 120,
    height: 40,
    fontSize: 44,
    noise: 3,
    color: true,
    background: '#f4f6fa',
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export async function issueCaptcha(
  ex: Executor,
): Promise<{ vCodeToken: string; image: string; answer: string }> {
  const answer = Array.from({ length: 4 }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join('');
  const vCodeToken = randomBytes(18).toString('base64url');
  await ex.delete(captchas).where(lt(captchas.expiresAt, sql`now()`));
  await ex
    .insert(captchas)
    .values({ tokenHash: hash(vCodeToken), answer, expiresAt: new Date(Date.now() + TTL_MS).toISOString() });
  return { vCodeToken, image: drawSvg(answer), answer };
}

/** Single use: a captcha is spent by the attempt that presents it, right or wrong. */
export async function consumeCaptcha(ex: Executor, token: string, answer: string): Promise<boolean> {
  const rows = await ex
    .update(captchas)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(captchas.tokenHash, hash(token)), isNull(captchas.usedAt), gt(captchas.expiresAt, sql`now()`)),
    )
    .returning({ answer: captchas.answer });
  return rows.length === 1 && rows[0]!.answer === answer.trim().toUpperCase();
}
