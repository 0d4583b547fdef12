import { accessSync, constants, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_OFF } from './config';

/**
 * Which headless Chromium renders print PDFs (docs/operations.md "Print PDFs and Chromium"):
 * CHROMIUM_PATH when set; unset, Debian's `/usr/bin/chromium`, else the Chromium carried inside the
 * optional npm package `@sparticuz/chromium` (Linux x64 only: its tarball has no other build).
 * Without any, the server still starts: PDF calls answer `reason` and the HTML preview prints
 * through the user's browser.
 */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export type PdfBrowser =
  | { available: true; executablePath: string; origin: 'setting' | 'system' | 'bundled' }
  | {
      available: false;
      /** What a PDF call answers (Chinese, shown on the print screens). */
      reason: string;
      /** The one line logged at start (English), or null when the operator chose `off`. */
      warning: string | null;
    };

const PREVIEW_HINT = '请用“预览”在浏览器中打印';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The bundled Chromium unpacked (into a private folder per version), or why not. */
export type BundledChromium = () => Promise<{ path: string } | { missing: string }>;

/**
 * `@sparticuz/chromium` unpacks its brotli files into os.tmpdir() and reuses any `/tmp/chromium`
 * it finds there; TMPDIR points it at a folder of ours (per version, mode 0700) for the call, so
 * it neither runs a file another user left in /tmp nor an older version's.
 */
export const sparticuzChromium: BundledChromium = async () => {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { missing: `the bundled Chromium has no build for ${process.platform}-${process.arch}` };
  let mod: { default: { executablePath(): Promise<string> } };
  let version: string;
  try {
    mod = (await import('@sparticuz/chromium')) as typeof mod;
    // build/cjs/index.cjs → the package folder (its package.json is not exported).
    const main = createRequire(import.meta.url).resolve('@sparticuz/chromium');
    version = (JSON.parse(readFileSync(join(main, '../../../package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return { missing: 'the optional package @sparticuz/chromium is not installed' };
  }
  const dir = join(tmpdir(), `portal-chromium-${version}-${process.getuid?.() ?? 0}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return { path: await mod.default.executablePath() };
  } catch (err) {
    return {
      missing: `unpacking @sparticuz/chromium failed (${err instanceof Error ? err.message : String(err)})`,
    };
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
};

export async function findChromium(
  setting: string | undefined,
  bundled: BundledChromium = sparticuzChromium,
): Promise<PdfBrowser> {
  if (setting === CHROMIUM_OFF)
    return {
      available: false,
      reason: `PDF打印未启用（服务器设置CHROMIUM_PATH=off），${PREVIEW_HINT}`,
      warning: null,
    };
  if (setting) {
    if (executable(setting)) return { available: true, executablePath: setting, origin: 'setting' };
    return {
      available: false,
      reason: `PDF打印不可用：服务器上CHROMIUM_PATH所指的Chromium不存在或不可执行，请联系管理员；${PREVIEW_HINT}`,
      warning:
        `CHROMIUM_PATH: no executable Chromium at ${setting}; print PDFs are unavailable (the HTML preview ` +
        'still prints). Correct CHROMIUM_PATH, unset it, or set CHROMIUM_PATH=off.',
    };
  }
  if (executable(SYSTEM_CHROMIUM))
    return { available: true, executablePath: SYSTEM_CHROMIUM, origin: 'system' };
  const found = await bundled();
  if ('path' in found) return { available: true, executablePath: found.path, origin: 'bundled' };
  return {
    available: false,
    reason: `PDF打印不可用：服务器未安装Chromium，请联系管理员；${PREVIEW_HINT}`,
    warning:
      `no Chromium for print PDFs: ${SYSTEM_CHROMIUM} is missing and ${found.missing}; PDFs are unavailable ` +
      '(the HTML preview still prints). Install chromium (apt-get install chromium), set CHROMIUM_PATH, ' +
      'or CHROMIUM_PATH=off.',
  };
}
