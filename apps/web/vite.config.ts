import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig(({ command }) => ({
  root: webRoot,
  base: '/',
  plugins: [react()],
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
