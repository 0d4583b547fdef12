import { createHash, randomBytes, randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { captchas } from '../../platform/auth/schema';

// No 0/O, 1/I/L: people read these images.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const TTL_MS = 5 * 60_000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

const WIDTH = 120;
const HEIGHT = 40;
const FONT_SIZE = 40;

/** What the drawing reads of svg-captcha's font (an opentype.js font: its `options.font`). */
type PathCommand =
  | { type: 'M' | 'L'; x: number; y: number }
  | { type: 'Q'; x1: number; y1: number; x: number; y: number }
  | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: 'Z' };
interface Font {
  charToGlyph(ch: string): { getPath(x: number, y: number, fontSize: number): { commands: PathCommand[] } };
}
// svg-captcha's own drawing moves each outline point by ±0.1 px only: a matcher built from this
// font read every one of them (issue 39). We take the font's outlines and distort them ourselves.
const FONT = (createRequire(import.meta.url)('svg-captcha') as { options: { font: Font } }).options.font;

/**
 * Uniform numbers from node:crypto. Math.random's state can be recovered from enough of its
 * outputs, and with it every distortion of an image; these give nothing away.
 */
class Dice {
  private pool = randomBytes(0);
  private at = 0;
  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    if (this.at + 4 > this.pool.length) {
      this.pool = randomBytes(4096);
      this.at = 0;
    }
    const u = this.pool.readUInt32LE(this.at) / 2 ** 32;
    this.at += 4;
    return min + (max - min) * u;
  }
  sign(): number {
    return this.between(0, 1) < 0.5 ? -1 : 1;
  }
}

type Point = [number, number];

/**
 * One drawing's distortion of one character: rotation, skew and scale of its own, then a smooth
 * random bending of its strokes (three waves in random directions: no affine undo straightens it,
 * and neighbouring points move together, so thin strokes stay whole), and a little noise on every
 * outline point.
 */
function distortion(dice: Dice, center: Point, at: Point): (p: Point) => Point {
  const angle = dice.sign() * dice.between(0.15, 0.45);
  const skew = dice.sign() * dice.between(0.2, 0.45);
  const sx = dice.between(0.75, 1.1);
  const sy = dice.between(0.85, 1.15);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const waves = [0, 1, 2].map(() => {
    const dir = dice.between(0, 2 * Math.PI);
    const push = dice.between(0, 2 * Math.PI);
    return {
      kx: (Math.cos(dir) * 2 * Math.PI) / dice.between(12, 26),
      ky: (Math.sin(dir) * 2 * Math.PI) / dice.between(12, 26),
      phase: dice.between(0, 2 * Math.PI),
      dx: Math.cos(push) * dice.between(0.8, 1.6),
      dy: Math.sin(push) * dice.between(0.8, 1.6),
    };
  });
  return ([x0, y0]) => {
    const x1 = (x0 - center[0]) * sx;
    const y1 = (y0 - center[1]) * sy;
    const x2 = x1 + skew * y1;
    let x = x2 * cos - y1 * sin;
    let y = x2 * sin + y1 * cos;
    const [bx, by] = [x, y];
    for (const w of waves) {
      const k = Math.sin(bx * w.kx + by * w.ky + w.phase);
      x += w.dx * k;
      y += w.dy * k;
    }
    return [at[0] + x + dice.between(-0.2, 0.2), at[1] + y + dice.between(-0.2, 0.2)];
  };
}

const fmt = (n: number) => n.toFixed(1);
const pt = ([x, y]: Point) => `${fmt(x)} ${fmt(y)}`;

/** A character's outline, distorted (distortion) and centred on `at`, as path data. */
function glyphPath(dice: Dice, ch: string, at: Point): string {
  const commands = FONT.charToGlyph(ch).getPath(0, 0, FONT_SIZE).commands;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const c of commands)
    if (c.type !== 'Z') {
      xs.push(c.x);
      ys.push(c.y);
    }
  const center: Point = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const move = distortion(dice, center, at);
  return commands
    .map((c) => {
      switch (c.type) {
        case 'M':
        case 'L':
          return `${c.type}${pt(move([c.x, c.y]))}`;
        case 'Q':
          return `Q${pt(move([c.x1, c.y1]))} ${pt(move([c.x, c.y]))}`;
        case 'C':
          return `C${pt(move([c.x1, c.y1]))} ${pt(move([c.x2, c.y2]))} ${pt(move([c.x, c.y]))}`;
        default:
          return 'Z';
      }
    })
    .join('');
}

/**
 * A filled strip `width` wide along the cubic curve a → b → c → d: a decoy stroke drawn exactly
 * like a glyph's outline, so no attribute tells the two apart.
 */
function strip(points: [Point, Point, Point, Point], width: number): string {
  const [a, b, c, d] = points;
  const at = (t: number): Point => {
    const u = 1 - t;
    const k = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t] as const;
    return [
      k[0] * a[0] + k[1] * b[0] + k[2] * c[0] + k[3] * d[0],
      k[0] * a[1] + k[1] * b[1] + k[2] * c[1] + k[3] * d[1],
    ];
  };
  const left: Point[] = [];
  const right: Point[] = [];
  const steps = 24;
  for (let i = 0; i <= steps; i++) {
    const [x, y] = at(i / steps);
    const [nx, ny] = at(Math.min(1, (i + 1) / steps));
    const [px, py] = at(Math.max(0, (i - 1) / steps));
    const len = Math.hypot(nx - px, ny - py) || 1;
    const ox = (-(ny - py) / len) * (width / 2);
    const oy = ((nx - px) / len) * (width / 2);
    left.push([x + ox, y + oy]);
    right.push([x - ox, y - oy]);
  }
  return `M${[...left, ...right.reverse()].map(pt).join('L')}Z`;
}

const shuffled = <T>(dice: Dice, items: T[]): T[] =>
  items
    .map((item) => ({ item, k: dice.between(0, 1) }))
    .sort((a, b) => a.k - b.k)
    .map(({ item }) => item);

/** A dark colour of its own for each glyph and decoy (people read dark on the light ground). */
const ink = (dice: Dice) =>
  `hsl(${Math.floor(dice.between(0, 360))},${Math.floor(dice.between(55, 80))}%,${Math.floor(dice.between(32, 45))}%)`;

/**
 * Four characters as an SVG data URI (docs/protocol.md "Sessions", SECURITY.md "Sign-in"). Each
 * glyph is the font's outline distorted anew for every drawing (rotation, skew, scale, smooth
 * bending and point noise) and crossed by a thin decoy stroke inside its own path; two long decoy
 * strokes run through all of them, and light noise curves behind. No <text> element or character
 * of the answer is in the image, and no glyph has the same shape twice, so neither the markup nor
 * a template of the font reads it.
 */
function drawSvg(answer: string): string {
  const dice = new Dice();
  const slot = WIDTH / (answer.length + 1);
  const glyphs = [...answer].map((ch, i) => {
    const at: Point = [slot * (i + 1) + dice.between(-3, 3), HEIGHT / 2 + dice.between(-2.5, 2.5)];
    const across: [Point, Point, Point, Point] = [
      [at[0] - 14, at[1] + dice.between(-10, 10)],
      [at[0] - 5, at[1] + dice.between(-14, 14)],
      [at[0] + 5, at[1] + dice.between(-14, 14)],
      [at[0] + 14, at[1] + dice.between(-10, 10)],
    ];
    // The decoy among the glyph's own outlines, in random order: its place gives it away no more.
    const outlines = [...glyphPath(dice, ch, at).split(/(?=M)/), strip(across, dice.between(0.6, 0.9))];
    return `<path fill="${ink(dice)}" d="${shuffled(dice, outlines).join('')}"/>`;
  });
  const band = () => HEIGHT / 2 + dice.between(-11, 11);
  const decoys = [0, 1].map(
    () =>
      `<path fill="${ink(dice)}" d="${strip(
        [
          [dice.between(0, 12), band()],
          [dice.between(30, 50), band()],
          [dice.between(70, 90), band()],
          [dice.between(WIDTH - 12, WIDTH), band()],
        ],
        dice.between(0.7, 1),
      )}"/>`,
  );
  const noise = [0, 1].map(
    () =>
      `<path fill="none" stroke-width="1" stroke="hsl(${Math.floor(dice.between(0, 360))},35%,78%)" d="M${pt([
        dice.between(0, 20),
        dice.between(2, HEIGHT - 2),
      ])}C${pt([dice.between(30, 60), dice.between(0, HEIGHT)])} ${pt([
        dice.between(60, 90),
        dice.between(0, HEIGHT),
      ])} ${pt([dice.between(WIDTH - 20, WIDTH), dice.between(2, HEIGHT - 2)])}"/>`,
  );
  // In random order: the document order tells nothing either.
  const parts = shuffled(dice, [...noise, ...glyphs, ...decoys]);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0,0,${WIDTH},${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#f4f6fa"/>${parts.join('')}</svg>`;
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
