import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { trimAntdCss } from './antd-css';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/** Vendor groups shared by every route chunk (rolldown `codeSplitting.groups`, vite 8's manualChunks). */
const VENDOR_GROUPS: { name: string; test: RegExp; priority: number }[] = [
  {
    name: 'vendor-react',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
    priority: 30,
  },
  { name: 'vendor-query', test: /node_modules[\\/](@tanstack|zustand)[\\/]/, priority: 25 },
  { name: 'vendor-echarts', test: /node_modules[\\/](echarts|zrender|echarts-for-react)[\\/]/, priority: 20 },
  // The validator is for forms; grouped on its own so that the login page does not load it.
  { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/, priority: 15 },
  // antd, its rc-components, its icons and helpers in one chunk for every screen under antd (all
  // but the login page, whose entry imports none of it: sizes.ts checks), instead of some 70 small
  // chunks split by which screens share them: a cold contract list fetched 114 script files, 68 of
  // them antd's, and now 47 (bench/README.md "First screen"). Tree-shaking is over the whole app,
  // so this is the antd the product uses, and the list fetched nearly all of it already (591.8 KB
  // gzip of JavaScript in all then, 589.6 KB now). Nothing in it imports app code, and its
  // dependencies come with it (`includeDependenciesRecursively`), so it imports only React's chunk
  // and the runtime: no chunk cycle, no call into a chunk that has not run yet.
  {
    name: 'vendor-antd',
    test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[a-z-]+|@babel[\\/]runtime|classnames|clsx|dayjs)[\\/]/,
    priority: 12,
  },
];

/**
 * antd's prebuilt stylesheet without the rules of components the app never renders (antd-css.ts):
 * the same file, module and chunk (vendor-antd's CSS), 10 % fewer rules to parse and match.
 */
function antdCssTrimmed(): Plugin {
  const antdCss = createRequire(import.meta.url).resolve('antd/dist/antd.css');
  return {
    name: 'portal:antd-css-trimmed',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (id !== antdCss) return null;
      const { css, total, dropped } = trimAntdCss(`${webRoot}src`);
      this.info(`antd.css: ${dropped} of ${total} bytes dropped (components never rendered)`);
      return css;
    },
  };
}

/** The session cookie (src/shared/auth/token.ts TOKEN_COOKIE). */
const TOKEN_COOKIE = 'Admin-Token';
/** The chunks every signed-in screen needs whatever its path: antd's shell and the management layout. */
const SIGNED_IN_SHELL = [/\/app\/antd-shell\.tsx$/, /\/layout\/management\/ManagementLayout\.tsx$/];

/**
 * With a session, the signed-in shell's files (vendor-antd, its stylesheet, the antd shell and the
 * management layout, with what they import) are asked for by a small module script ahead of the
 * entry, in parallel with it: the guard asked for them only once the entry had been fetched and
 * evaluated (React and the router). Without a session (the login page) it asks for nothing.
 * A module script file, not an inline one: the CSP allows no inline script (SECURITY.md).
 */
function signedInPreload(): Plugin {
  return {
    name: 'portal:signed-in-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset')
        throw new Error('signed-in preload: index.html is not in the bundle yet');
      const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry)!;
      const inEntry = new Set([entry.fileName, ...entry.imports]);
      const scripts = new Set<string>();
      const styles = new Set<string>();
      const add = (fileName: string) => {
        const chunk = byName.get(fileName);
        if (!chunk || scripts.has(fileName) || inEntry.has(fileName)) return;
        scripts.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
        chunk.imports.forEach(add);
      };
      for (const test of SIGNED_IN_SHELL) {
        const chunk = chunks.find((c) => c.facadeModuleId && test.test(c.facadeModuleId));
        if (!chunk) throw new Error(`signed-in preload: no chunk for ${String(test)}`);
        add(chunk.fileName);
      }
      const links = [
        ...[...styles].map((f) => ['style', `/${f}`]),
        ...[...scripts].map((f) => ['script', `/${f}`]),
      ];
      // The scripts at a low priority, as every lazy chunk's (lowPriorityChunks): the session calls
      // the guard makes once the entry has run go out ahead of the shell's files still queued.
      const source =
        `if(/(?:^|;\\s*)${TOKEN_COOKIE}=./.test(document.cookie))for(const[a,h]of ${JSON.stringify(links)}){` +
        `const l=document.createElement('link');l.rel=a==='style'?'preload':'modulepreload';` +
        `if(a==='style')l.as='style';else l.fetchPriority='low';l.crossOrigin='';l.href=h;document.head.appendChild(l)}\n`;
      const fileName = `assets/signed-in-preload-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      const tag = `<script type="module" crossorigin src="/${fileName}"></script>`;
      const text = String(html.source);
      if (!text.includes('<script type="module"'))
        throw new Error('signed-in preload: no entry script in index.html');
      html.source = text.replace('<script type="module"', `${tag}\n    <script type="module"`);
    },
  };
}

/** Vite's preload helper, as it reads in vite's build (`\0vite/preload-helper.js`). */
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const SCRIPT_PRELOAD = 'if (!isCss) link.as = "script";';

/**
 * The `modulepreload` links vite's helper adds for a lazy chunk's imports ask at a low priority
 * (`fetchPriority = 'low'`), so an API call is never queued behind them: Chromium opens six
 * connections to an HTTP/1.1 host and hands a free one to the highest priority waiting, the first
 * asked among equals. A cold contract list asked for ≈ 40 files of the shell and the screen just
 * before the session calls, which then waited up to ≈ 0.7 s for a connection, and the list call
 * behind what was left (bench/README.md "Twelfth pass"). The files still all come, on the other
 * connections; an API call only goes first. Fails the build if the helper no longer reads so.
 */
function lowPriorityChunks(): Plugin {
  let patched = false;
  return {
    name: 'portal:low-priority-chunks',
    apply: 'build',
    enforce: 'post',
    buildStart() {
      patched = false;
    },
    transform(code, id) {
      if (id !== PRELOAD_HELPER) return null;
      if (!code.includes(SCRIPT_PRELOAD))
        throw new Error(`low-priority chunks: no \`${SCRIPT_PRELOAD}\` in vite's preload helper`);
      patched = true;
      return code.replace(SCRIPT_PRELOAD, 'if (!isCss) { link.as = "script"; link.fetchPriority = "low"; }');
    },
    buildEnd(error) {
      if (!error && !patched)
        throw new Error("low-priority chunks: vite's preload helper was not in the build");
    },
  };
}

export default defineConfig(({ command }) => ({
  root: webRoot,
  base: '/',
  plugins: [antdCssTrimmed(), react(), signedInPreload(), lowPriorityChunks()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // vendor-antd is ≈ 1.25 MB before compression (≈ 380 KB gzip), by design: see VENDOR_GROUPS.
    chunkSizeWarningLimit: 1300,
    rolldownOptions: {
      // console.log and console.warn are stripped in production; console.error/info stay.
      treeshake: command === 'build' ? { manualPureFunctions: ['console.log', 'console.warn'] } : undefined,
      output: {
        codeSplitting: {
          groups: VENDOR_GROUPS,
        },
      },
    },
  },
}));
