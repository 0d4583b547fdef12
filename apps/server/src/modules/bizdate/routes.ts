import { UNSCOPED } from '../../platform/http/route-scope';
import { button, menu } from '@portal/contract/menus';
import {
  BIZDATE_MENU,
  BIZDATE_PATHS,
  bizDateSaveSchema,
  dayEndListSchema,
  dayEndQuery,
  reminderListSchema,
  type BizDateMoved,
  type BizDateView,
  type DayEndProgress,
} from '@portal/contract/bizdate';
import { SYSPARAM_MENU } from '@portal/contract/sysparams';
import type { PortalModule } from '../../platform/module';
import { classThresholds, collectionSchedule, guaranteeWatch } from '../../platform/params';
import { closeInterrupted, isEmbedded } from '../../platform/progress';
import { DAY_END_RUN_ROWS } from './schema';
import {
  BIZDATE_TOPIC,
  catchUpDayEnds,
  dayEndItemsOf,
  followStoredDate,
  lastPosting,
  latestRun,
  listRuns,
  myReminders,
  runDayEnd,
  runningDayEnd,
  runningHere,
  setBusinessDate,
} from './service';

const FOLLOW_MS = 60_000;

/**
 * 营业日 and 日终 (docs/business-date.md): the business date every server shows and computes with,
 * set on its screen by holders of ft-bizdate:save; the day-end runs when it moves, on demand, and
 * (when the date simply follows the calendar) as the scheduled job `dayEnd` (modules/jobs).
 */
/** The business date and day-end run over the whole book, by its administrators (营业日管理). */
const DAY_END = { none: 'the business date and day-end of the whole book, run by its administrators' };

export const bizdateModule: PortalModule = {
  name: 'bizdate',
  async register({ api, app, db, database, clock, params }) {
    // Retention and the 五级分类 thresholds as 参数设置 holds them when the day-end starts.
    const purge = () => ({
      logRetentionDays: params.current.logRetentionDays,
      classThresholds: classThresholds(params.current),
      collectionSchedule: collectionSchedule(params.current),
      guaranteeWatch: guaranteeWatch(params.current),
    });
    await followStoredDate(db, clock);
    // The embedded database: a run its previous process left 运行中 ended with it (platform/progress.ts).
    await closeInterrupted(db, DAY_END_RUN_ROWS);
    const follow = () =>
      void followStoredDate(db, clock).catch((err: unknown) =>
        app.log.error({ err }, 'reading the business date failed'),
      );
    database.changes.on(BIZDATE_TOPIC, follow);
    // The calendar's own day change runs the day-ends as the scheduled job `dayEnd` (modules/jobs).
    const timer = setInterval(follow, FOLLOW_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));

    api.post(
      BIZDATE_PATHS.view,
      { perm: 'session', scope: UNSCOPED.reference },
      async (): Promise<BizDateView> => ({
        businessDate: clock.today(),
        source: clock.source(),
        lastPostingDate: (await lastPosting(db))?.date ?? null,
        lastDayEnd: await latestRun(db),
      }),
    );
    api.post(
      BIZDATE_PATHS.save,
      // Also from 参数设置 (docs/business-date.md): the same route, rules and audit for either button.
      {
        perm: [button(BIZDATE_MENU, 'save'), button(SYSPARAM_MENU, 'save')],
        scope: DAY_END,
        body: bizDateSaveSchema,
      },
      async ({ body, actor }): Promise<BizDateMoved> => {
        const moved = await db.transaction((tx) =>
          setBusinessDate(tx, body.businessDate, clock.today(), actor),
        );
        clock.setStored(moved.to);
        // Forward: every day's day-end in order; back (or the same day): the new date's only.
        const runs =
          moved.to > moved.from
            ? await catchUpDayEnds(db, moved.from, moved.to, actor, purge())
            : [await runDayEnd(db, moved.to, 'dateChange', actor, purge())];
        return { ...moved, run: runs.at(-1)!, days: runs.length };
      },
    );
    api.post(
      BIZDATE_PATHS.progress,
      { perm: [button(BIZDATE_MENU, 'save'), button(SYSPARAM_MENU, 'save')], scope: DAY_END },
      // PostgreSQL: the rows every server writes; PGlite: this process's run, without waiting for
      // the one connection its transaction holds (docs/business-date.md "Progress").
      async (): Promise<DayEndProgress> => ({
        running: isEmbedded(db) ? (runningHere(db) ?? (await runningDayEnd(db))) : await runningDayEnd(db),
      }),
    );
    api.post(
      BIZDATE_PATHS.runDayEnd,
      { perm: button(BIZDATE_MENU, 'save'), scope: DAY_END },
      async ({ actor }) => runDayEnd(db, clock.today(), 'manual', actor, purge()),
    );
    api.post(
      BIZDATE_PATHS.dayEndList,
      { perm: menu(BIZDATE_MENU), scope: DAY_END, body: dayEndListSchema },
      ({ body }) => listRuns(db, body),
    );
    api.post(
      BIZDATE_PATHS.dayEndItems,
      { perm: menu(BIZDATE_MENU), scope: DAY_END, query: dayEndQuery },
      ({ query }) => dayEndItemsOf(db, query.businessDate),
    );
    api.post(
      BIZDATE_PATHS.reminders,
      { perm: 'session', scope: UNSCOPED.own, body: reminderListSchema },
      ({ body, actor }) => myReminders(db, actor.userId, body, clock.today()),
    );
  },
};
