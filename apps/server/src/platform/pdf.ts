import type { Browser, BrowserServer } from 'playwright-core';
import { metrics } from './metrics';
import { PRINT_FONT_FAMILY, printFontFaces, withPrintFont } from './print-font';

/** The flags every headless Chromium of this project runs with (README "Browser"). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The footer's characters: the page loads their slices of the print font (print-font.ts says why).
const FOOTER_CHARS = '第页共/ 0123456789';
const FOOTER_DIV = `<div style="width:100%;font-size:9px;text-align:center;color:#555;font-family:'${PRINT_FONT_FAMILY}','Noto Sans CJK SC',sans-serif">第 <span class="pageNumber"></span> 页 / 共 <span class="totalPages"></span> 页</div>`;
const FOOTER = `<style>${printFontFaces(FOOTER_CHARS)}</style>${FOOTER_DIV}`;

export interface PdfRendererOptions {
  executablePath: string;
  /** A render still running after this is abandoned and its browser killed. */
  timeoutMs: number;
  /** Renders at once; more wait their turn (each page holds tens of MB). */
  concurrency?: number;
}

interface Running {
  server: BrowserServer;
  browser: Browser;
}

/**
 * HTML to A4 PDF with headless Chromium. One browser serves every request (a launch costs about a
 * second); each render gets its own context without JavaScript or network. A render that outlives
 * the timeout kills the browser process, and the next request starts a fresh one.
 */
export class PdfRenderer {
  private running: Promise<Running> | null = null;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Browsers started so far (observable by tests and the log). */
  launches = 0;

  constructor(private readonly options: PdfRendererOptions) {}

  private launch(): Promise<Running> {
    if (!this.running) {
      this.launches++;
      const started = (async () => {
        // Loaded on the first render, not at start: the module alone costs a start (and every
        // server test file's worker) about 0.5 s of CPU (bench/README.md "CI time").
        const { chromium } = await import('playwright-core');
        const server = await chromium.launchServer({
          executablePath: this.options.executablePath,
          args: CHROMIUM_ARGS,
          headless: true,
        });
        const browser = await chromium.connect(server.wsEndpoint());
        // A browser that dies on its own is replaced on the next request.
        browser.on('disconnected', () => {
          if (this.running === started) this.running = null;
        });
        return { server, browser };
      })();
      started.catch(() => {
        if (this.running === started) this.running = null;
      });
      this.running = started;
    }
    return this.running;
  }

  private async acquire(): Promise<void> {
    const limit = this.options.concurrency ?? 2;
    if (this.active < limit) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  /** `landscape` turns the A4 page across (the page's own @page size is not consulted). */
  async render(html: string, timeoutMs = this.options.timeoutMs, landscape = false): Promise<Buffer> {
    const timed = metrics.pdfStarted();
    try {
      const pdf = await this.renderTimed(html, timeoutMs, landscape);
      timed('ok');
      return pdf;
    } catch (err) {
      timed('failed');
      throw err;
    }
  }

  private async renderTimed(html: string, timeoutMs: number, landscape: boolean): Promise<Buffer> {
    await this.acquire();
    try {
      let running: Running;
      try {
        running = await this.launch();
      } catch (err) {
        throw new Error(`Chromium did not start (${this.options.executablePath})`, { cause: err });
      }
      const work = (async () => {
        const context = await running.browser.newContext({ javaScriptEnabled: false, offline: true });
        try {
          const page = await context.newPage();
          await page.setContent(withPrintFont(html, FOOTER_CHARS), { waitUntil: 'load', timeout: timeoutMs });
          return await page.pdf({
            format: 'A4',
            landscape,
            printBackground: true,
            displayHeaderFooter: true,
            headerTemplate: '<span></span>',
            footerTemplate: FOOTER,
            margin: { top: '18mm', bottom: '20mm', left: '18mm', right: '18mm' },
          });
        } finally {
          await context.close().catch(() => undefined);
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('pdf render timed out')), timeoutMs);
      });
      try {
        return await Promise.race([work, timeout]);
      } catch (err) {
        if (err instanceof Error && err.message === 'pdf render timed out') {
          work.catch(() => undefined);
          await this.kill(running);
          throw new Error(`PDF render exceeded ${timeoutMs} ms; the browser was killed`, { cause: err });
        }
        throw err;
      } finally {
        clearTimeout(timer);
      }
    } finally {
      this.release();
    }
  }

  private async kill(running: Running): Promise<void> {
    if (this.running && (await this.running.catch(() => null)) === running) this.running = null;
    await running.server.kill();
  }

  async close(): Promise<void> {
    const running = await this.running?.catch(() => null);
    this.running = null;
    if (running) await running.server.close().catch(() => running.server.kill());
  }
}
