import { sql, type SQL } from 'drizzle-orm';
import type { Page } from '@portal/contract/api';
import {
  NOTICE_STATE_LABELS,
  type NoticeBody,
  type NoticeListQuery,
  type NoticeShown,
  type NoticeState,
  type NoticeView,
} from '@portal/contract/notices';
import { dataScopeCondition, type ScopeUser } from '../../platform/auth/data-scope';
import { rowScopeCondition } from '../../platform/auth/row-scope';
import type { SessionUser } from '../../platform/auth/sessions';
import type { Actor } from '../../platform/db/audit';
import { changedFields, runCommand } from '../../platform/db/command';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import { badInput, conflict, notFound, STALE_VERSION_MSG } from '../../platform/errors';
import { countOf, likePattern, offsetOf, page } from '../../platform/http/list';
import { syncNoticeMessages } from '../messages';

/**
 * 通知公告 (docs/operations.md "Announcements"). Times travel as the office reads them, a minute
 * in Asia/Shanghai (`YYYY-MM-DD HH:mm`), and are stored as instants.
 */
const TZ = 'Asia/Shanghai';
const wall = (col: SQL) => sql`to_char(${col} at time zone ${TZ}, 'YYYY-MM-DD HH24:MI')`;
const instant = (v: string) => sql`(${v}::timestamp at time zone ${TZ})`;

interface Row {
  id: number;
  title: string;
  content: string;
  publish_from: string;
  publish_to: string;
  state: NoticeState;
  version: number;
  created_by_name: string | null;
  updated_at: string;
  depts: { code: string; name: string }[] | null;
}

const SELECT = sql`select n.id::int as id, n.title, n.content, ${wall(sql`n.publish_from`)} as publish_from,
       ${wall(sql`n.publish_to`)} as publish_to, n.state, n.version, u.real_name as created_by_name, n.updated_at,
       (select coalesce(json_agg(json_build_object('code', trim(d.biz_code), 'name', d.name) order by d.sort, d.id), '[]')
          from notice_depts nd join depts d on d.id = nd.dept_id where nd.notice_id = n.id) as depts
  from notices n left join users u on u.id = n.created_by`;

/** The organisations inside the user's data scope, as the organisation screens scope them. */
const orgsOf = (user: ScopeUser) => sql`(select r.id from depts r where ${rowScopeCondition('org', user)})`;

/**
 * The announcements a user keeps (SECURITY.md "Row scope"): like any document, those whose author
 * lies inside the user's data scope, and, since changing one changes what others read, whose
 * audience does too: every organisation it is for (one for everybody lies inside 全部数据 only).
 */
function noticeScope(user: ScopeUser): SQL {
  if (user.dataScope === 'all') return sql`true`;
  return sql`(${dataScopeCondition(user, { ownerUser: sql`n.created_by` })}
    and exists (select 1 from notice_depts nd where nd.notice_id = n.id)
    and not exists (select 1 from notice_depts nd where nd.notice_id = n.id and nd.dept_id not in ${orgsOf(user)}))`;
}

function view(r: Row): NoticeView {
  return {
    id: Number(r.id),
    title: r.title,
    content: r.content,
    publishFrom: r.publish_from,
    publishTo: r.publish_to,
    state: r.state,
    stateLabel: NOTICE_STATE_LABELS[r.state],
    version: Number(r.version),
    depts: r.depts ?? [],
    createdByName: r.created_by_name,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function listNotices(db: Db, q: NoticeListQuery, user: ScopeUser): Promise<Page<NoticeView>> {
  const conds: SQL[] = [noticeScope(user)];
  if (q.title) conds.push(sql`n.title ilike ${likePattern(q.title)}`);
  if (q.state) conds.push(sql`n.state = ${q.state}`);
  const where = sql`where ${sql.join(conds, sql` and `)}`;
  const dir = sql.raw(q.order === 'asc' ? 'asc' : 'desc');
  const order = q.orderBy === 'publishFrom' ? sql`n.publish_from ${dir}, n.id ${dir}` : sql`n.id desc`;
  const rows = await queryRows<Row>(
    db,
    sql`${SELECT} ${where} order by ${order} limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  return page(rows.map(view), await countOf(db, sql`from notices n ${where}`), q);
}

/** The announcement, if the user keeps it (noticeScope; 404 otherwise). */
async function read(ex: Executor, id: number, user: ScopeUser, lock = false): Promise<NoticeView> {
  const [row] = await queryRows<Row>(
    ex,
    sql`${SELECT} where n.id = ${id} and ${noticeScope(user)} ${lock ? sql`for update of n` : sql``}`,
  );
  if (!row) throw notFound('通知公告');
  return view(row);
}

export const getNotice = (db: Db, id: number, user: ScopeUser) => read(db, id, user);

/**
 * The organisations chosen, by code: each must exist (not deleted) and lie inside the user's data
 * scope (one outside it reads as missing); everybody (none chosen) only for 全部数据.
 */
async function deptIds(ex: Executor, codes: readonly string[], user: ScopeUser): Promise<number[]> {
  const unique = [...new Set(codes)];
  if (unique.length === 0) {
    if (user.dataScope !== 'all') throw badInput('发布范围只能选择您数据权限内的组织');
    return [];
  }
  const rows = await queryRows<{ id: number; code: string }>(
    ex,
    sql`select r.id::int as id, trim(r.biz_code) as code from depts r
         where r.biz_code in (${sql.join(
           unique.map((c) => sql`${c}`),
           sql`, `,
         )}) and r.deleted_at is null and ${rowScopeCondition('org', user)}`,
  );
  const missing = unique.find((c) => !rows.some((r) => r.code === c));
  if (missing) throw badInput(`发布范围的组织不存在：${missing}`);
  return rows.map((r) => Number(r.id));
}

/** What an audit row records of an announcement: its fields in words. */
function audited(v: NoticeView): Record<string, string> {
  return {
    title: v.title,
    content: v.content,
    publishFrom: v.publishFrom,
    publishTo: v.publishTo,
    deptCodes: v.depts.length ? v.depts.map((d) => d.name).join('、') : '全部组织',
    state: v.stateLabel,
  };
}

const changes = (before: NoticeView, after: NoticeView) => changedFields(audited(before), audited(after));

async function writeDepts(ex: Executor, id: number, ids: number[]): Promise<void> {
  await ex.execute(sql`delete from notice_depts where notice_id = ${id}`);
  for (const d of ids)
    await ex.execute(sql`insert into notice_depts (notice_id, dept_id) values (${id}, ${d})`);
}

export async function addNotice(
  db: Db,
  body: NoticeBody,
  actor: Actor,
  user: ScopeUser,
): Promise<NoticeView> {
  return runCommand(db, actor, { entity: 'notice', action: 'add' }, async (tx, w) => {
    const ids = await deptIds(tx, body.deptCodes, user);
    const [row] = await queryRows<{ id: number }>(
      tx,
      sql`insert into notices (title, content, publish_from, publish_to, state, created_by, updated_by)
          values (${body.title}, ${body.content}, ${instant(body.publishFrom)}, ${instant(body.publishTo)},
                  ${body.state}, ${actor.userId || null}, ${actor.userId || null})
          returning id::int as id`,
    );
    const id = Number(row!.id);
    await writeDepts(tx, id, ids);
    await syncNoticeMessages(tx, id, actor.userId);
    const saved = await read(tx, id, user);
    await w.audit({ code: String(id), detail: audited(saved) });
    return saved;
  });
}

export async function updateNotice(
  db: Db,
  body: NoticeBody & { id: number; version: number },
  actor: Actor,
  user: ScopeUser,
): Promise<NoticeView> {
  const cmd = { entity: 'notice', action: 'update', code: String(body.id) };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const before = await read(tx, body.id, user, true);
    // The row is locked by the read: comparing its version is the optimistic check.
    if (before.version !== body.version) throw conflict(STALE_VERSION_MSG);
    const ids = await deptIds(tx, body.deptCodes, user);
    await tx.execute(
      sql`update notices set title = ${body.title}, content = ${body.content},
             publish_from = ${instant(body.publishFrom)}, publish_to = ${instant(body.publishTo)},
             state = ${body.state}, version = version + 1, updated_by = ${actor.userId || null}, updated_at = now()
           where id = ${body.id}`,
    );
    await writeDepts(tx, body.id, ids);
    await syncNoticeMessages(tx, body.id, actor.userId);
    const after = await read(tx, body.id, user);
    const detail = changes(before, after);
    if (Object.keys(detail.after).length > 0) await w.audit({ detail });
    else w.unchanged();
    return after;
  });
}

/** 发布 (from a draft or a withdrawn one) and 撤回 (of a published one). */
export async function setNoticeState(
  db: Db,
  body: { id: number; state: 'published' | 'withdrawn' },
  actor: Actor,
  user: ScopeUser,
): Promise<NoticeView> {
  const cmd = {
    entity: 'notice',
    action: body.state === 'published' ? 'publish' : 'withdraw',
    code: String(body.id),
  };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const before = await read(tx, body.id, user, true);
    if (body.state === 'published' && before.state === 'published') throw conflict('公告已发布');
    if (body.state === 'withdrawn' && before.state !== 'published')
      throw conflict('只有已发布的公告可以撤回');
    await tx.execute(
      sql`update notices set state = ${body.state}, version = version + 1, updated_by = ${actor.userId || null}, updated_at = now()
           where id = ${body.id}`,
    );
    await syncNoticeMessages(tx, body.id, actor.userId);
    const after = await read(tx, body.id, user);
    await w.audit({ detail: changes(before, after) });
    return after;
  });
}

export async function deleteNotice(db: Db, id: number, actor: Actor, user: ScopeUser): Promise<void> {
  await runCommand(db, actor, { entity: 'notice', action: 'delete', code: String(id) }, async (tx, w) => {
    const before = await read(tx, id, user, true);
    await tx.execute(sql`delete from notices where id = ${id}`);
    // Gone, so addressed to nobody: its messages go with it.
    await syncNoticeMessages(tx, id, actor.userId);
    await w.audit({ detail: audited(before) });
  });
}

/**
 * The announcements in force for `user` now: published, now inside the window, and meant for
 * everyone or for an organisation that is the user's own or one above it (an announcement for an
 * organisation reaches its sub-organisations). A user without an organisation sees only those for
 * everyone.
 */
export async function noticesFor(db: Db, user: Pick<SessionUser, 'deptId'>): Promise<NoticeShown[]> {
  const mine =
    user.deptId === null
      ? sql`false`
      : sql`nd.dept_id in (with recursive up(id, parent_id) as (
              select id, parent_id from depts where id = ${user.deptId}
              union
              select d.id, d.parent_id from depts d join up on d.id = up.parent_id
            ) select id from up)`;
  const rows = await queryRows<Omit<Row, 'state' | 'version' | 'created_by_name' | 'updated_at' | 'depts'>>(
    db,
    sql`select n.id::int as id, n.title, n.content, ${wall(sql`n.publish_from`)} as publish_from,
               ${wall(sql`n.publish_to`)} as publish_to
          from notices n
         where n.state = 'published' and n.publish_from <= now() and n.publish_to > now()
           and (not exists (select 1 from notice_depts nd where nd.notice_id = n.id)
                or exists (select 1 from notice_depts nd where nd.notice_id = n.id and ${mine}))
         order by n.publish_from desc, n.id desc
         limit 50`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    content: r.content,
    publishFrom: r.publish_from,
    publishTo: r.publish_to,
  }));
}
