import Decimal from 'decimal.js';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Cycle, LineFigures, LineKind, Movement } from '@portal/contract/credit';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { nextCode } from '../../platform/db/codes';
import { prebuilt } from '../../platform/db/prebuilt';
import { badInput, conflict, notFound } from '../../platform/errors';
import { creditLedger, creditLines } from './schema';
import { formatYuan } from '@portal/contract/format';

/**
 * The occupation ledger (docs/credit.md). Every function runs inside the caller's
 * transaction (`tx`), so the movement commits with the document that causes it or not at all.
 *
 * Locking: a line and its ancestors are locked in one statement in the order of their ids
 * (lockChain: root first, a parent being older than its children), the same order everywhere, so
 * two movements on one tree queue instead of deadlocking. The figures change only through guarded updates
 * (`… where occupied + x + reserved <= limit`), backed by the table's CHECK constraint.
 *
 * Invariant, per line: occupied = Σ occupy + Σ reoccupy − Σ release, reserved = Σ reserve −
 * Σ unreserve, over its `credit_ledger` rows.
 */

export type LineRow = typeof creditLines.$inferSelect;

export interface MovementInput {
  /** The line's 12-digit code (`credit_lines.biz_code`). */
  lineCode: string;
  /** Decimal string (or Decimal), > 0, at most 2 decimals. */
  amount: string | Decimal;
  /** The document that causes the movement, e.g. 'contract', 'paid', 'paidRed'. */
  docType: string;
  docCode: string;
  /** Business date (营业日) of the movement, YYYY-MM-DD; occupation checks the line's dates on it. */
  date: string;
  actor: Actor;
  reason?: string;
}

export interface ReleaseInput extends MovementInput {
  /**
   * 'repayment' (default): principal repaid; restores the amount on a cyclical line, nothing on
   * a one-off line. 'cancel': the occupation itself is voided (a contract change lowering the
   * financing, a cancelled contract): restores the amount on any line.
   */
  kind?: 'repayment' | 'cancel';
}

export interface MovementResult {
  /** The amount that actually moved (0.00 for a repayment on a one-off line). */
  moved: string;
  /** The figures of the line named, after the movement. */
  line: LineFigures;
}

export const ONE_OFF_REASON = '一次性额度不恢复';

const ZERO = new Decimal(0);

function parseAmount(amount: string | Decimal, label: string): Decimal;
/** `zeroIsNone`: 0 or less answers undefined (nothing to move) instead of a 400. */
function parseAmount(amount: string | Decimal, label: string, zeroIsNone: true): Decimal | undefined;
function parseAmount(amount: string | Decimal, label: string, zeroIsNone = false): Decimal | undefined {
  let d: Decimal;
  try {
    d = new Decimal(amount);
  } catch {
    throw badInput(`${label}格式不正确`);
  }
  if (zeroIsNone && d.lte(0)) return undefined;
  if (!d.isFinite() || d.lte(0)) throw badInput(`${label}必须大于0`);
  if (d.decimalPlaces() > 2) throw badInput(`${label}最多两位小数`);
  if (d.gte('1e16')) throw badInput(`${label}超出允许范围`);
  return d;
}

const fmt = (d: Decimal | string) => new Decimal(d).toFixed(2);

export function available(line: LineRow): Decimal {
  return new Decimal(line.limitAmount).minus(line.occupiedAmount).minus(line.reservedAmount);
}

export function figures(line: LineRow, parentCode: string | null = null): LineFigures {
  return {
    lineCode: line.bizCode,
    kind: line.kind as LineKind,
    custCode: line.custCode,
    custName: line.custName,
    debtorCode: line.debtorCode,
    debtorName: line.debtorName,
    product: line.product,
    parentLineCode: parentCode,
    limitAmount: fmt(line.limitAmount),
    occupiedAmount: fmt(line.occupiedAmount),
    reservedAmount: fmt(line.reservedAmount),
    availableAmount: fmt(available(line)),
    frozen: line.frozen,
    startDate: line.startDate,
    endDate: line.endDate,
    cycle: line.cycle as Cycle,
    state: line.state as LineFigures['state'],
    version: line.version,
  };
}

const kindLabel: Record<string, string> = {
  platform: '平台额度',
  debtor: '保理子额度',
  distribution: '分配额度',
};
const describe = (l: Pick<LineRow, 'bizCode' | 'kind'>) =>
  `额度 ${l.bizCode}（${kindLabel[l.kind] ?? l.kind}）`;

/** lockChain's statement, built once (platform/db/prebuilt.ts): every movement of a line runs it. */
const chainLocked = prebuilt('credit_chain_locked', (ex) =>
  ex
    .select()
    .from(creditLines)
    .where(
      inArray(
        creditLines.id,
        sql`(with recursive up (id, parent, depth) as (
               select id, parent_line_id, 1 from credit_lines where biz_code = ${sql.placeholder('lineCode')}
               union all
               select c.id, c.parent_line_id, up.depth + 1 from credit_lines c join up on c.id = up.parent
                where up.depth < 8)
             select id from up)`,
      ),
    )
    .orderBy(asc(creditLines.id))
    .for('update'),
);

/**
 * Locks the line named and its ancestors (at most 8 lines) in one statement, and answers them root
 * first (the line named last). The rows are locked in the order of their ids, the one order every
 * caller takes, so two chains sharing a line cannot deadlock; a parent is made before its children
 * (bigserial), so that is root first as well. Parent links never change, so reading the chain
 * before locking is safe (bench/README.md "Write-off contention: prepared statements": one
 * statement instead of one a link plus one a lock).
 */
export async function lockChain(tx: Tx, lineCode: string): Promise<LineRow[]> {
  const rows = await chainLocked(tx, { lineCode });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const chain: LineRow[] = [];
  // Walked from the line named up its parents (bounded by the rows read: no link is followed twice).
  for (
    let line = rows.find((r) => r.bizCode.trimEnd() === lineCode.trimEnd());
    line && chain.length < rows.length;
  ) {
    chain.unshift(line);
    line = line.parentLineId === null ? undefined : byId.get(line.parentLineId);
  }
  if (chain.length === 0) throw notFound('授信额度');
  return chain;
}

/** The lines whose occupied figure an occupation of `chain`'s last line moves: a debtor line and its platform parent; else the line alone. */
function touched(chain: LineRow[]): LineRow[] {
  const leaf = chain[chain.length - 1]!;
  if (leaf.kind === 'debtor') return chain.slice(-2);
  return [leaf];
}

interface Doc {
  docType: string;
  docCode: string;
  date: string;
  actor: Actor;
  reason?: string | undefined;
}

/** The movement row's columns, the line's excepted (the key and `at` are the table's own). */
type MovementColumns = Exclude<keyof typeof creditLedger.$inferInsert, 'id' | 'at'>;

/**
 * The one place that knows a movement row's columns: the insert of the row of `line`, a relation
 * answering the line's `id`, `limit_amount`, `occupied_amount` and `reserved_amount` as they are
 * after the movement. `shift` selects them from its guarded update, in the same statement, and
 * `writeMovement` from the values of the line it holds. A column added to `credit_ledger` is a
 * type error here until it has its value (docs/credit.md "Figures").
 */
function movementInsert(line: SQL, movement: Movement, amount: Decimal, doc: Doc): SQL {
  const values: Record<MovementColumns, SQL> = {
    lineId: sql`id`,
    movement: sql`${movement}::text`,
    amount: sql`${fmt(amount)}::numeric`,
    limitAfter: sql`limit_amount`,
    occupiedAfter: sql`occupied_amount`,
    reservedAfter: sql`reserved_amount`,
    docType: sql`${doc.docType}::text`,
    docCode: sql`${doc.docCode}::text`,
    reason: sql`${doc.reason ?? null}::text`,
    bizDate: sql`${doc.date}::date`,
    actorId: sql`${doc.actor.userId || null}::bigint`,
    actorName: sql`${doc.actor.userName}::text`,
  };
  const columns = Object.keys(values) as MovementColumns[];
  return sql`insert into credit_ledger (${sql.join(
    columns.map((c) => sql.identifier(creditLedger[c].name)),
    sql`, `,
  )}) select ${sql.join(
    columns.map((c) => values[c]),
    sql`, `,
  )} from ${line}`;
}

/** A movement row on its own: the line's figures as `line` holds them (create, limit change, a 0.00 row). */
export async function writeMovement(
  tx: Tx,
  line: LineRow,
  movement: Movement,
  amount: Decimal,
  doc: Doc,
): Promise<void> {
  await tx.execute(
    movementInsert(
      sql`(values (${line.id}::bigint, ${fmt(line.limitAmount)}::numeric, ${fmt(line.occupiedAmount)}::numeric,
                   ${fmt(line.reservedAmount)}::numeric))
            as l (id, limit_amount, occupied_amount, reserved_amount)`,
      movement,
      amount,
      doc,
    ),
  );
}

/**
 * Guarded change of occupied/reserved by signed deltas and its movement row, one statement (a
 * data-modifying CTE: the ledger row is written from the updated figures, or not at all when the
 * guard refuses); refuses rather than break the bound. The line's row as it is after the change.
 */
async function shift(
  tx: Tx,
  line: LineRow,
  deltaOccupied: Decimal,
  deltaReserved: Decimal,
  movement: Movement,
  amount: Decimal,
  doc: Doc,
): Promise<LineRow> {
  const dOcc = deltaOccupied.toFixed(2);
  const dRes = deltaReserved.toFixed(2);
  const uid = doc.actor.userId || null;
  const [row] = await queryRows<{ limit: string; occupied: string; reserved: string; version: number }>(
    tx,
    sql`with s as (
          update credit_lines
             set occupied_amount = occupied_amount + ${dOcc}::numeric,
                 reserved_amount = reserved_amount + ${dRes}::numeric,
                 version = version + 1, updated_at = now(), updated_by = ${uid}::bigint
           where id = ${line.id}
             and occupied_amount + ${dOcc}::numeric >= 0
             and reserved_amount + ${dRes}::numeric >= 0
             and occupied_amount + ${dOcc}::numeric + reserved_amount + ${dRes}::numeric <= limit_amount
          returning id, limit_amount, occupied_amount, reserved_amount, version),
        m as (${movementInsert(sql`s`, movement, amount, doc)})
        select limit_amount::text as "limit", occupied_amount::text as occupied,
               reserved_amount::text as reserved, version from s`,
  );
  if (!row) {
    throw conflict(
      `授信额度不足：${describe(line)}可用 ${formatYuan(available(line))}，本次 ${formatYuan(deltaOccupied.plus(deltaReserved).abs())}`,
    );
  }
  return {
    ...line,
    limitAmount: fmt(row.limit),
    occupiedAmount: fmt(row.occupied),
    reservedAmount: fmt(row.reserved),
    version: row.version,
    updatedBy: uid,
  };
}

function checkUsable(chain: LineRow[], date: string): void {
  for (const l of chain) {
    if (l.state !== 'active') throw conflict(`额度已关闭：${describe(l)}`);
    if (l.frozen) throw conflict(`额度已冻结：${describe(l)}`);
    if (date < l.startDate || date > l.endDate)
      throw conflict(
        `额度不在有效期内：${describe(l)}有效期 ${l.startDate} 至 ${l.endDate}，业务日期 ${date}`,
      );
  }
}

function checkRoom(lines: LineRow[], amount: Decimal): void {
  for (const l of lines) {
    const avail = available(l);
    if (avail.lt(amount))
      throw conflict(`授信额度不足：${describe(l)}可用 ${formatYuan(avail)}，本次占用 ${formatYuan(amount)}`);
  }
}

async function parentCodeOf(
  ex: Executor,
  line: LineRow,
  chain: readonly LineRow[] = [],
): Promise<string | null> {
  if (line.parentLineId === null) return null;
  // The locked chain holds the line's parent already (lockChain reads every ancestor).
  const known = chain.find((l) => l.id === line.parentLineId);
  if (known) return known.bizCode;
  const [p] = await ex
    .select({ code: creditLines.bizCode })
    .from(creditLines)
    .where(eq(creditLines.id, line.parentLineId));
  return p?.code ?? null;
}

/**
 * Occupies `amount` on a line (contract approval). A debtor line occupies itself and its
 * platform parent; a platform or distribution line only itself (a distribution's parent has
 * already reserved it). Refuses with 409 when any line of the chain is frozen, closed or outside
 * its dates on `date`, or when a touched line's available (limit − occupied − reserved) is less
 * than the amount: 授信额度不足 with the line and its available amount.
 */
export async function occupy(tx: Tx, input: MovementInput): Promise<MovementResult> {
  const amount = parseAmount(input.amount, '占用金额');
  const chain = await lockChain(tx, input.lineCode);
  checkUsable(chain, input.date);
  const lines = touched(chain);
  checkRoom(lines, amount);
  let leaf: LineRow | undefined;
  for (const l of lines) {
    leaf = await shift(tx, l, amount, ZERO, 'occupy', amount, { ...input, reason: input.reason ?? '占用' });
  }
  return { moved: fmt(amount), line: figures(leaf!, await parentCodeOf(tx, leaf!, chain)) };
}

/**
 * Principal repaid by a contract gives its line back: at most what the contract still holds on
 * it (docs/credit.md). The amount that moved (0 when nothing is held, or on a one-off line).
 */
export async function releaseRepaid(
  tx: Tx,
  contract: { lineCode: string; occupiedAmount: string },
  principal: Decimal.Value,
  doc: Omit<MovementInput, 'lineCode' | 'amount'>,
): Promise<Decimal> {
  const amount = parseAmount(Decimal.min(principal, contract.occupiedAmount), '释放金额', true);
  if (!amount) return new Decimal(0);
  return releasedInOne(tx, contract.lineCode, amount, doc);
}

/**
 * `release` of a repayment (its chain's lock, check, guarded updates and movement rows) in one
 * statement, a round trip less while the line's rows are locked (bench/README.md "Fourteenth
 * pass"). The chain is locked as lockChain locks it (the rows of the line and its ancestors in the
 * order of their ids, by the CTE `chain`, which nothing inlines: it locks); the update then changes
 * only rows `chain` has answered, so locked already, and takes no lock out of that order. The
 * touched lines (a debtor line and its parent; else the line alone), the cycle and the room are
 * decided in SQL from the locked rows as `release` decides them in node, all or nothing: a line
 * short of the amount changes no row, and the refusal names the first such line in the chain's
 * order with its figures as locked. A one-off line writes its 0.00 rows instead.
 */
async function releasedInOne(
  tx: Tx,
  lineCode: string,
  amount: Decimal,
  doc: Omit<MovementInput, 'lineCode' | 'amount'>,
): Promise<Decimal> {
  const amt = fmt(amount);
  const uid = doc.actor.userId || null;
  const rows = await queryRows<{
    biz_code: string;
    kind: string;
    limit_amount: string;
    occupied_amount: string;
    reserved_amount: string;
    restores: boolean;
    done: boolean;
  }>(
    tx,
    sql`with recursive up (id, parent, depth) as (
          select id, parent_line_id, 1 from credit_lines where biz_code = ${lineCode}
          union all
          select c.id, c.parent_line_id, up.depth + 1 from credit_lines c join up on c.id = up.parent
           where up.depth < 8),
        chain as materialized (
          select l.id, l.biz_code, l.kind, l.cycle, l.limit_amount, l.occupied_amount, l.reserved_amount, up.depth
            from credit_lines l join up on up.id = l.id
           order by l.id for update of l),
        touched as (
          select * from chain
           where depth = 1 or (depth = 2 and (select kind from chain where depth = 1) = 'debtor')),
        go as (
          select coalesce((select cycle = 'cyclical' from chain where depth = 1), false) as restores,
                 not exists (select 1 from touched where occupied_amount < ${amt}::numeric) as room),
        s as (
          update credit_lines l
             set occupied_amount = l.occupied_amount - ${amt}::numeric,
                 version = l.version + 1, updated_at = now(), updated_by = ${uid}::bigint
            from touched t, go
           where l.id = t.id and go.restores and go.room
             and l.occupied_amount - ${amt}::numeric >= 0
             and l.occupied_amount - ${amt}::numeric + l.reserved_amount <= l.limit_amount
          returning l.id, l.limit_amount, l.occupied_amount, l.reserved_amount),
        m as (${movementInsert(sql`(select * from s order by id) s`, 'release', amount, {
          ...doc,
          reason: doc.reason ?? '还款释放',
        })}),
        z as (${movementInsert(
          sql`(select t.* from touched t, go where not go.restores order by t.id) t`,
          'release',
          ZERO,
          {
            ...doc,
            reason: doc.reason ? `${doc.reason}；${ONE_OFF_REASON}` : ONE_OFF_REASON,
          },
        )})
        select t.biz_code, t.kind, t.limit_amount::text as limit_amount, t.occupied_amount::text as occupied_amount,
               t.reserved_amount::text as reserved_amount, go.restores,
               exists (select 1 from s where s.id = t.id) as done
          from touched t, go order by t.id`,
  );
  if (rows.length === 0) throw notFound('授信额度');
  if (!rows[0]!.restores) return new Decimal(0);
  const line = (r: (typeof rows)[number]) => ({ bizCode: r.biz_code, kind: r.kind });
  const short = rows.find((r) => new Decimal(r.occupied_amount).lt(amount));
  if (short)
    throw conflict(
      `释放金额超过已占用金额：${describe(line(short))}已占用 ${formatYuan(fmt(short.occupied_amount))}，本次释放 ${formatYuan(amount)}`,
    );
  const refused = rows.find((r) => !r.done);
  if (refused) {
    const avail = new Decimal(refused.limit_amount)
      .minus(refused.occupied_amount)
      .minus(refused.reserved_amount);
    throw conflict(
      `授信额度不足：${describe(line(refused))}可用 ${formatYuan(avail)}，本次 ${formatYuan(amount)}`,
    );
  }
  return amount;
}

/**
 * Releases `amount` (principal repaid, or a voided occupation) on the same lines as `occupy`.
 * A repayment on a one-off line restores nothing: it writes a 0.00 row with reason
 * 一次性额度不恢复, so the history still shows the repayment. Refuses (409) to release more
 * than is occupied. Frozen or expired lines may always release.
 */
export async function release(tx: Tx, input: ReleaseInput): Promise<MovementResult> {
  const amount = parseAmount(input.amount, '释放金额');
  const chain = await lockChain(tx, input.lineCode);
  const lines = touched(chain);
  const leafRow = lines[lines.length - 1]!;
  const restores = input.kind === 'cancel' || leafRow.cycle === 'cyclical';
  let leaf: LineRow = leafRow;
  for (const l of lines) {
    if (!restores) {
      await writeMovement(tx, l, 'release', ZERO, {
        ...input,
        reason: input.reason ? `${input.reason}；${ONE_OFF_REASON}` : ONE_OFF_REASON,
      });
      leaf = l;
      continue;
    }
    if (new Decimal(l.occupiedAmount).lt(amount))
      throw conflict(
        `释放金额超过已占用金额：${describe(l)}已占用 ${formatYuan(l.occupiedAmount)}，本次释放 ${formatYuan(amount)}`,
      );
    leaf = await shift(tx, l, amount.neg(), ZERO, 'release', amount, {
      ...input,
      reason: input.reason ?? (input.kind === 'cancel' ? '撤销占用' : '还款释放'),
    });
  }
  return {
    moved: restores ? fmt(amount) : '0.00',
    line: figures(leaf, await parentCodeOf(tx, leaf, chain)),
  };
}

/**
 * Re-occupies what a release gave back (red reversal of a write-off). On a cyclical line it
 * occupies `amount` again on the same lines; on a one-off line the release restored nothing, so
 * this writes a 0.00 row and moves nothing. It is not "new business": a frozen or expired line
 * still re-occupies. But available ≥ 0 always (docs/credit.md "Movements"): if the released amount has meanwhile
 * been used by another contract, it refuses with 409 授信额度不足 rather than over-occupy.
 */
export async function reoccupy(tx: Tx, input: MovementInput): Promise<MovementResult> {
  const amount = parseAmount(input.amount, '恢复占用金额');
  const chain = await lockChain(tx, input.lineCode);
  const lines = touched(chain);
  const leafRow = lines[lines.length - 1]!;
  if (leafRow.cycle !== 'cyclical') {
    for (const l of lines)
      await writeMovement(tx, l, 'reoccupy', ZERO, {
        ...input,
        reason: input.reason ? `${input.reason}；${ONE_OFF_REASON}` : ONE_OFF_REASON,
      });
    return { moved: '0.00', line: figures(leafRow, await parentCodeOf(tx, leafRow, chain)) };
  }
  checkRoom(lines, amount);
  let leaf: LineRow = leafRow;
  for (const l of lines) {
    leaf = await shift(tx, l, amount, ZERO, 'reoccupy', amount, {
      ...input,
      reason: input.reason ?? '冲红恢复占用',
    });
  }
  return { moved: fmt(amount), line: figures(leaf, await parentCodeOf(tx, leaf, chain)) };
}

/** Carves `amount` out of a line for a distribution child (internal: distribution and change approvals). */
export async function reserve(
  tx: Tx,
  line: LineRow,
  amount: Decimal,
  doc: Doc,
  op: 'reserve' | 'unreserve',
): Promise<LineRow> {
  if (op === 'reserve' && available(line).lt(amount))
    throw conflict(
      `可分配额度不足：${describe(line)}可用 ${formatYuan(available(line))}，本次分配 ${formatYuan(amount)}`,
    );
  return shift(tx, line, ZERO, op === 'reserve' ? amount : amount.neg(), op, amount, doc);
}

export interface NewLine {
  kind: LineKind;
  creditId: number;
  parent: LineRow | null;
  sourceDocCode: string;
  custCode: string;
  custName: string;
  debtorCode?: string | null;
  debtorName?: string | null;
  product?: string | null;
  limitAmount: Decimal;
  startDate: string;
  endDate: string;
  cycle: Cycle;
}

export async function createLine(tx: Tx, l: NewLine, doc: Doc): Promise<LineRow> {
  const bizCode = await nextCode(tx, 'credit_line');
  const [row] = await tx
    .insert(creditLines)
    .values({
      bizCode,
      kind: l.kind,
      creditId: l.creditId,
      parentLineId: l.parent?.id ?? null,
      sourceDocCode: l.sourceDocCode,
      custCode: l.custCode,
      custName: l.custName,
      debtorCode: l.debtorCode ?? null,
      debtorName: l.debtorName ?? null,
      product: l.product ?? null,
      limitAmount: fmt(l.limitAmount),
      startDate: l.startDate,
      endDate: l.endDate,
      cycle: l.cycle,
      createdBy: doc.actor.userId || null,
      updatedBy: doc.actor.userId || null,
    })
    .returning();
  await writeMovement(tx, row!, 'create', l.limitAmount, doc);
  return row!;
}

/** Sets a new limit (change approval); refuses below occupied + reserved. */
export async function setLimit(tx: Tx, line: LineRow, newLimit: Decimal, doc: Doc): Promise<LineRow> {
  const floor = new Decimal(line.occupiedAmount).plus(line.reservedAmount);
  if (newLimit.lt(floor))
    throw conflict(
      `调整后额度不能低于已占用与已分配之和：${describe(line)}已占用 ${formatYuan(line.occupiedAmount)}，已分配 ${formatYuan(line.reservedAmount)}`,
    );
  const [row] = await tx
    .update(creditLines)
    .set({
      limitAmount: fmt(newLimit),
      version: sql`${creditLines.version} + 1`,
      updatedAt: sql`now()`,
      updatedBy: doc.actor.userId || null,
    })
    .where(
      and(
        eq(creditLines.id, line.id),
        sql`${creditLines.occupiedAmount} + ${creditLines.reservedAmount} <= ${fmt(newLimit)}::numeric`,
      ),
    )
    .returning();
  if (!row) throw conflict(`调整后额度不能低于已占用与已分配之和：${describe(line)}`);
  await writeMovement(tx, row, 'limit_change', newLimit.minus(line.limitAmount), doc);
  return row;
}

export async function setFlags(
  tx: Tx,
  line: LineRow,
  change: { frozen?: boolean; endDate?: string },
  movement: 'freeze' | 'unfreeze' | 'extend',
  doc: Doc,
): Promise<LineRow> {
  const [row] = await tx
    .update(creditLines)
    .set({
      ...(change.frozen !== undefined ? { frozen: change.frozen } : {}),
      ...(change.endDate !== undefined ? { endDate: change.endDate } : {}),
      version: sql`${creditLines.version} + 1`,
      updatedAt: sql`now()`,
      updatedBy: doc.actor.userId || null,
    })
    .where(eq(creditLines.id, line.id))
    .returning();
  await writeMovement(tx, row!, movement, ZERO, doc);
  return row!;
}

/** A line's current figures (no lock), e.g. for a contract form's preview. */
/** Lines whose credit lies inside `creditScope` (a condition over the alias `scoped_credit`). */
export function lineOfCreditIn(creditScope: SQL): SQL {
  return sql`exists (select 1 from credits scoped_credit where scoped_credit.id = ${creditLines.creditId} and ${creditScope})`;
}

/**
 * The active lines a customer may occupy (its platform and factoring lines, and distribution
 * lines given to it), for the contract's credit picker. `creditScope`: only lines of credits inside it (the caller's scope, aliased `scoped_credit`). */
export async function linesOfCustomer(
  ex: Executor,
  custCode: string,
  creditScope?: SQL,
): Promise<LineFigures[]> {
  const rows = await ex
    .select()
    .from(creditLines)
    .where(
      and(
        eq(creditLines.custCode, custCode),
        eq(creditLines.state, 'active'),
        creditScope ? lineOfCreditIn(creditScope) : undefined,
      ),
    )
    .orderBy(asc(creditLines.id));
  const parentIds = [...new Set(rows.map((r) => r.parentLineId).filter((x): x is number => x !== null))];
  const parents = parentIds.length
    ? await ex
        .select({ id: creditLines.id, code: creditLines.bizCode })
        .from(creditLines)
        .where(inArray(creditLines.id, parentIds))
    : [];
  const codeOf = new Map(parents.map((p) => [p.id, p.code]));
  return rows.map((r) => figures(r, r.parentLineId === null ? null : (codeOf.get(r.parentLineId) ?? null)));
}

/**
 * Whether `amount` could be occupied on the line on `date` right now (no lock, no write): null
 * if yes, else the refusal message. For a contract's save-time validation; `occupy` re-checks.
 */
export async function canOccupy(
  ex: Executor,
  lineCode: string,
  amount: string,
  date: string,
): Promise<string | null> {
  const [leaf] = await ex.select().from(creditLines).where(eq(creditLines.bizCode, lineCode));
  if (!leaf) return '授信额度不存在';
  const chain: LineRow[] = [leaf];
  while (chain[0]!.parentLineId !== null) {
    const [p] = await ex.select().from(creditLines).where(eq(creditLines.id, chain[0]!.parentLineId!));
    if (!p) break;
    chain.unshift(p);
  }
  try {
    const amt = parseAmount(amount, '占用金额');
    checkUsable(chain, date);
    checkRoom(touched(chain), amt);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
