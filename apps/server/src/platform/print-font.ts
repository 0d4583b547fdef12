import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Chinese font of print PDFs, from npm (@fontsource-variable/noto-sans-sc, SIL OFL), so a PDF
 * reads the same whether or not the server has fonts-noto-cjk (docs/operations.md "Print PDFs and
 * Chromium"). The package splits the font into ~100 files by unicode-range; a page embeds, as data
 * URLs, only the files holding a character it uses (a contract: a few hundred kB).
 */
export const PRINT_FONT_FAMILY = 'Noto Sans SC Variable';

interface Slice {
  file: string;
  ranges: [number, number][];
}

let slices: Slice[] | undefined;
const encoded = new Map<string, string>();

function loadSlices(): Slice[] {
  if (slices) return slices;
  const pkg = dirname(
    createRequire(import.meta.url).resolve('@fontsource-variable/noto-sans-sc/package.json'),
  );
  const css = readFileSync(join(pkg, 'index.css'), 'utf8');
  slices = [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, block = '']) => {
    const file = /url\(\.\/([^)]+\.woff2)\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!file || !range) throw new Error(`print font: unreadable @font-face in ${pkg}/index.css`);
    return {
      file: join(pkg, file),
      ranges: range.split(',').map((r) => {
        const [from = '', to] = r.trim().replace(/^U\+/i, '').split('-');
        return [parseInt(from, 16), parseInt(to ?? from, 16)] as [number, number];
      }),
    };
  });
  return slices;
}

function dataUrl(file: string): string {
  let url = encoded.get(file);
  if (!url) {
    url = `data:font/woff2;base64,${readFileSync(file).toString('base64')}`;
    encoded.set(file, url);
  }
  return url;
}

/** @font-face rules for the characters of `text` (the slices it needs, embedded). */
export function printFontFaces(text: string): string {
  const used = new Set<number>();
  for (const ch of text) used.add(ch.codePointAt(0)!);
  const codes = [...used];
  return loadSlices()
    .filter((s) => codes.some((c) => s.ranges.some(([from, to]) => c >= from && c <= to)))
    .map(
      (s) =>
        `@font-face{font-family:'${PRINT_FONT_FAMILY}';font-style:normal;font-weight:100 900;` +
        `src:url(${dataUrl(s.file)}) format('woff2');unicode-range:${s.ranges
          .map(([a, b]) => (a === b ? `U+${a.toString(16)}` : `U+${a.toString(16)}-${b.toString(16)}`))
          .join(',')}}`,
    )
    .join('');
}

/**
 * The print page with the font embedded and first in the body's font list. Chromium draws the PDF
 * footer with the fonts the page has loaded, not with the footer's own @font-face: `footer` (its
 * characters) is laid out hidden on the page so their slices load too.
 */
export function withPrintFont(html: string, footer = ''): string {
  const style = `<style>${printFontFaces(html + footer)}body{font-family:'${PRINT_FONT_FAMILY}','Noto Serif CJK SC','Noto Sans CJK SC',serif}</style>`;
  const at = html.indexOf('</head>');
  const page = at < 0 ? style + html : html.slice(0, at) + style + html.slice(at);
  if (!footer) return page;
  const hidden = `<div aria-hidden="true" style="visibility:hidden;position:absolute;top:0;left:0">${footer}</div>`;
  const end = page.lastIndexOf('</body>');
  return end < 0 ? page + hidden : page.slice(0, end) + hidden + page.slice(end);
}
