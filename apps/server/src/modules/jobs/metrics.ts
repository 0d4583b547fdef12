import { Counter, Histogram, register } from 'prom-client';

/**
 * The jobs' metrics in prom-client's default registry (docs/operations.md "Scheduled jobs"): runs
 * by job and result, and how long they took. Made once per process (several portals built in one
 * test process share them).
 */
export function jobMetrics(): {
  runs: Counter<'job' | 'result'>;
  duration: Histogram<'job'>;
} {
  const runs =
    (register.getSingleMetric('portal_job_runs_total') as Counter<'job' | 'result'> | undefined) ??
    new Counter({
      name: 'portal_job_runs_total',
      help: 'Scheduled and on-demand job runs, by job and result (ok or failed).',
      labelNames: ['job', 'result'],
    });
  const duration =
    (register.getSingleMetric('portal_job_duration_seconds') as Histogram<'job'> | undefined) ??
    new Histogram({
      name: 'portal_job_duration_seconds',
      help: 'How long a job run took, by job.',
      labelNames: ['job'],
      buckets: [0.05, 0.25, 1, 5, 30, 120, 600, 3600],
    });
  return { runs, duration };
}
