/**
 * 服务监控 (系统管理; docs/operations.md "Monitoring"): the serving process's figures, the same
 * ones `/metrics` publishes to Prometheus. Each server answers for itself: behind a load balancer
 * the screen shows whichever server took the call, named by its process id.
 */
export const SERVER_MONITOR_PATHS = {
  status: '/system/api/server/status',
} as const;

export const SERVER_MONITOR_MENU = 'system-server';

export interface ServerStatus {
  uptimeSeconds: number;
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; externalBytes: number };
  /** Over the last 30-second window (the first window: since start). */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  dbPool: { max: number; inUse: number; idle: number; waiting: number };
  /** In force in the database (every server), and held resolved by this server. */
  sessions: { active: number; cached: number };
  nodeVersion: string;
  pid: number;
}
