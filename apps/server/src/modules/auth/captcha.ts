import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { captchas } from '../../platform/auth/schema';

// No 0/O, 1/I/L: people read these images.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const TTL_MS = 5 * 60_000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Four characters drawn as an SVG with jitter and noise lines (PROTOCOL.md §2: an SVG data URI). */
function drawSvg(textValue: string): string {
  const w = 120;
  const h = 40;
  const parts: string[] = [`<rect width="${w}" height="${h}" fill="#f4f6fa"/>`];
  for (let i = 0; i < 5; i++) {
    parts.push(
      `<path d="M${randomInt(0, w)} ${randomInt(0, h)} Q${randomInt(0, w)} ${randomInt(0, h)} ${randomInt(0, w)} ${randomInt(0, h)}" stroke="hsl(${randomInt(0, 360)},50%,60%)" fill="none" stroke-width="1.5"/>`,
    );
  }
  [...textValue].forEach((ch, i) => {
    const x = 14 + i * 26 + randomInt(-3, 4);
    const y = 28 + randomInt(-4, 5);
    const rot = randomInt(-25, 26);
    parts.push(
      `<text x="${x}" y="${y}" transform="rotate(${rot} ${x} ${y})" font-family="monospace" font-size="26" font-weight="bold" fill="hsl(${randomInt(0, 360)},60%,35%)">${ch}</text>`,
    );
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
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
