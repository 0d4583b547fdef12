import { button, menu } from '@portal/contract/menus';
import {
  JOB_MENU,
  JOB_PATHS as P,
  jobCodeSchema,
  jobPausedSchema,
  jobRunsSchema,
  jobUpdateSchema,
} from '@portal/contract/jobs';
import { registryKey, type PortalModule } from '../../platform/module';
import { closeInterrupted } from '../../platform/progress';
import { JOB_DEFS } from './catalogue';
import { Scheduler } from './scheduler';
import { JOB_RUN_ROWS } from './schema';

/** This portal's scheduler, for tests that tick it themselves (JOB_TICK_MS=0). */
export const SCHEDULER = registryKey('jobs.scheduler', () => ({
  scheduler: undefined as Scheduler | undefined,
}));

/** The jobs run over the whole server, kept by its administrators (定时任务). */
const JOBS = { none: 'the scheduled jobs of the whole server, kept by its administrators' };

/**
 * 定时任务 (docs/operations.md "Scheduled jobs"): the scheduler every server runs, and the screen's
 * calls: the list, a job's history, 立即执行, a new schedule, 暂停/恢复.
 */
export const jobsModule: PortalModule = {
  name: 'jobs',
  async register({ api, app, db, database, config, clock, params, keyring, registries }) {
    const scheduler = new Scheduler({ db, database, config, clock, params, keyring }, JOB_DEFS, (err, what) =>
      app.log.error({ err }, what),
    );
    await scheduler.seed();
    // The embedded database: a run its previous process left 运行中 ended with it (platform/progress.ts).
    await closeInterrupted(db, JOB_RUN_ROWS);
    registries.get(SCHEDULER).scheduler = scheduler;
    scheduler.start(config.jobTickMs);
    app.addHook('onClose', async () => scheduler.stop());

    api.post(P.list, { perm: menu(JOB_MENU), scope: JOBS }, async () => scheduler.list());
    api.post(P.runs, { perm: menu(JOB_MENU), scope: JOBS, body: jobRunsSchema }, async ({ body }) =>
      scheduler.runs(body),
    );
    api.post(
      P.run,
      { perm: button(JOB_MENU, 'run'), scope: JOBS, body: jobCodeSchema },
      async ({ body, actor }) => scheduler.runNow(body.code, actor),
    );
    api.post(
      P.update,
      { perm: button(JOB_MENU, 'update'), scope: JOBS, body: jobUpdateSchema },
      async ({ body, actor }) => {
        await scheduler.setCron(body.code, body.cron, actor);
        return null;
      },
    );
    api.post(
      P.setPaused,
      { perm: button(JOB_MENU, 'status'), scope: JOBS, body: jobPausedSchema },
      async ({ body, actor }) => {
        await scheduler.setPaused(body.code, body.paused, actor);
        return null;
      },
    );
  },
};
