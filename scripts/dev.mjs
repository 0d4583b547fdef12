// Development: the API with reload (tsx watch, port 8080) and Vite with hot reload (port 5173,
// proxying /api to the API). Ctrl-C stops both.
import { spawn } from 'node:child_process';

const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' };
const children = [
  spawn('npx', ['tsx', 'watch', 'apps/server/src/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts', 'apps/web'], { stdio: 'inherit', env }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) =>
  c.on('exit', (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  }),
);
