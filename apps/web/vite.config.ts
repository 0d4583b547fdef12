import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/** Vendor groups shared by every route chunk (rolldown `codeSplitting.groups`, vite 8's manualChunks). */
const VENDOR_GROUPS: { name: string; test: RegExp; priority: number; tags?: '$initial'[] }[] = [
  {
    name: 'vendor-react',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
    priority: 30,
  },
  { name: 'vendor-query', test: /node_modules[\\/](@tanstack|zustand)[\\/]/, priority: 25 },
  { name: 'vendor-echarts', test: /node_modules[\\/](echarts|zrender|echarts-for-react)[\\/]/, priority: 20 },
  // The validator is for forms; grouped on its own so that the login page does not load it.
  { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/, priority: 15 },
  // What index.html loads of antd (and its helpers) as one chunk rather than some ten small ones:
  // fewer requests ahead of the guard's calls on a cold start (bench/README.md). `$initial` keeps it to the
  // modules the entry imports statically, so the screens' antd stays split by route.
  {
    name: 'vendor-antd-initial',
    test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[a-z-]+|@babel[\\/]runtime|classnames|dayjs)[\\/]/,
    tags: ['$initial'],
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
    chunkSizeWarningLimit: 1200,
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
