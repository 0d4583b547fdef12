/**
 * The production entry (`node apps/server/dist/start.cjs`). libuv sizes its thread pool from
 * UV_THREADPOOL_SIZE once, at the first file read, and the ES-module loader reads files before any
 * module of ours runs: only a CommonJS entry can set it in time. It then loads the server.
 */
import { threadPoolSize } from './platform/threadpool';

process.env.UV_THREADPOOL_SIZE ??= String(threadPoolSize());
// Kept external by build.mjs: the bundled ES-module server beside this file.
void import('./main.js');
