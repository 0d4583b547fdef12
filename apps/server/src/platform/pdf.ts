import { chromium, type Browser, type BrowserServer } from 'playwright-core';

/** The flags every headless Chromium of this project runs with (README "Browser"). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const FOOTER = `<div style="width:100%;font-size:9px;text-align:center;color:#555;font-family:'Noto Sans CJK SC',sans-serif">第 <span class="pageNumber"></span> 页 / 共 <span class="totalPages"></span> 页</div>`;

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

  async render(html: string, timeoutMs = this.options.timeoutMs): Promise<Buffer> {
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
          await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
          return await page.pdf({
            format: 'A4',
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
