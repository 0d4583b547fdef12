import { and, asc, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  BIZ_TYPE_LABELS,
  vocabularyOf,
  type BizType,
  type CompanyPrintData,
  type TemplateRow,
  type TemplateState,
  type TemplateView,
  templateListSchema,
  templateSaveSchema,
} from '@portal/contract/print';
import { buildPrintData } from '@portal/contract/print/data';
import {
  parseTemplate,
  renderTemplate,
  TemplateError,
  unknownPlaceholders,
} from '@portal/contract/print/template';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { customerNames, getCustomer } from '../company';
import { sanitizeTemplateHtml } from './sanitize';
import { printTemplates } from './schema';
import type { PrintSource } from './sources';

type Row = typeof printTemplates.$inferSelect;
const WHAT = '打印模板';
const live = isNull(printTemplates.deletedAt);

function toRow(r: Row, names: Map<string, string>): TemplateRow {
  return {
    bizCode: r.bizCode,
    version: r.version,
    name: r.name,
    bizType: r.bizType as BizType,
    coreCompCode: r.coreCompCode,
    coreCompName: r.coreCompCode ? (names.get(r.coreCompCode) ?? null) : null,
    state: r.state as TemplateState,
    remark: r.remark,
    updatedAt: r.updatedAt,
  };
}

export async function listTemplates(db: Db, q: z.output<typeof templateListSchema>) {
  const where: SQL[] = [live];
  if (q.name) where.push(ilike(printTemplates.name, likePattern(q.name)));
  if (q.bizType) where.push(eq(printTemplates.bizType, q.bizType));
  if (q.state) where.push(eq(printTemplates.state, q.state));
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(printTemplates)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: printTemplates.bizCode,
          name: printTemplates.name,
          bizType: printTemplates.bizType,
          updatedAt: printTemplates.updatedAt,
        },
        [desc(printTemplates.updatedAt), asc(printTemplates.bizCode)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${printTemplates} where ${cond}`);
  const names = await customerNames(
    db,
    rows.map((r) => r.coreCompCode ?? ''),
  );
  return page(
    rows.map((r) => toRow(r, names)),
    total,
    q,
  );
}

async function findTemplate(ex: Executor, bizCode: string, lock = false): Promise<Row> {
  const query = ex
    .select()
    .from(printTemplates)
    .where(and(eq(printTemplates.bizCode, bizCode), live));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(WHAT);
  return row;
}

export async function viewTemplate(ex: Executor, bizCode: string): Promise<TemplateView> {
  const row = await findTemplate(ex, bizCode);
  const names = await customerNames(ex, [row.coreCompCode ?? '']);
  return { ...toRow(row, names), content: row.content };
}

/**
 * A template body as it is stored: sanitised, well-formed, and naming only fields its type has.
 * The checks run on the sanitised body, which is what will print.
 */
export function cleanTemplate(bizType: BizType, content: string): string {
  const clean = sanitizeTemplateHtml(content);
  if (clean.trim() === '') throw badInput('模板内容不能为空');
  try {
    parseTemplate(clean);
  } catch (err) {
    if (err instanceof TemplateError) throw badInput(err.message);
    throw err;
  }
  const unknown = unknownPlaceholders(clean, vocabularyOf(bizType));
  if (unknown.length > 0) {
    throw badInput(
      `模板包含${BIZ_TYPE_LABELS[bizType]}没有的占位符：${unknown.map((n) => `{{${n}}}`).join('、')}`,
    );
  }
  return clean;
}

async function requireCoreComp(ex: Executor, compCode: string | undefined): Promise<void> {
  if (!compCode) return;
  const comp = await getCustomer(ex, compCode);
  if (!comp || !comp.roles.includes('core')) throw badInput('核心企业不存在');
}

export async function saveTemplate(
  db: Db,
  input: z.output<typeof templateSaveSchema>,
  actor: Actor,
): Promise<{ bizCode: string }> {
  const content = cleanTemplate(input.bizType, input.content);
  const values = {
    name: input.name,
    bizType: input.bizType,
    coreCompCode: input.coreCompCode ?? null,
    content,
    remark: input.remark ?? null,
  };
  const cmd = { code: input.bizCode, version: input.version, what: WHAT };
  const action = input.bizCode ? 'update' : 'create';
  return runCommand(db, actor, { entity: 'printTemplate', action, ...cmd }, async (tx, w) => {
    await requireCoreComp(tx, input.coreCompCode);
    if (!input.bizCode) {
      const code = await nextCode(tx, 'print');
      await tx.insert(printTemplates).values({
        ...values,
        bizCode: code,
        state: 'disabled',
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      await w.audit({ code, detail: values });
      return { bizCode: code };
    }
    if (input.version === undefined) throw badInput('版本号不能为空');
    const current = await findTemplate(tx, input.bizCode, true);
    if (current.state === 'enabled') {
      // An enabled template keeps the slot it holds: type and core enterprise cannot move under it.
      if (current.bizType !== values.bizType || current.coreCompCode !== values.coreCompCode) {
        throw conflict('启用中的模板不能修改业务类型或核心企业，请先停用');
      }
    }
    await w.update(printTemplates, and(eq(printTemplates.bizCode, input.bizCode), live)!, values);
    await w.audit({
      detail: { before: current.content === content ? undefined : current.content, after: values },
    });
    return { bizCode: input.bizCode };
  });
}

async function enabledPeer(tx: Tx, row: Row): Promise<Row | undefined> {
  const [peer] = await tx
    .select()
    .from(printTemplates)
    .where(
      and(
        live,
        eq(printTemplates.state, 'enabled'),
        eq(printTemplates.bizType, row.bizType),
        row.coreCompCode
          ? eq(printTemplates.coreCompCode, row.coreCompCode)
          : isNull(printTemplates.coreCompCode),
        sql`${printTemplates.id} <> ${row.id}`,
      ),
    )
    .limit(1);
  return peer;
}

export async function setTemplateState(db: Db, bizCode: string, state: TemplateState, actor: Actor) {
  const cmd = {
    entity: 'printTemplate',
    action: state === 'enabled' ? 'enable' : 'disable',
    code: bizCode,
    // Two enables of rival templates at once: the partial unique index lets one through.
    unique: { print_templates_enabled_key: '同一业务类型和核心企业只能启用一个模板，请刷新后重试' },
  };
  await runCommand(db, actor, cmd, async (tx, w) => {
    const row = await findTemplate(tx, bizCode, true);
    if (row.state === state) throw conflict(state === 'enabled' ? '模板已是启用状态' : '模板已是停用状态');
    if (state === 'enabled') {
      const peer = await enabledPeer(tx, row);
      if (peer) {
        throw conflict(`同一业务类型和核心企业只能启用一个模板，「${peer.name}」已启用，请先停用`);
      }
    }
    await w.touch(printTemplates, eq(printTemplates.id, row.id), { state });
    await w.audit();
  });
}

export async function deleteTemplate(db: Db, bizCode: string, actor: Actor): Promise<void> {
  await runCommand(db, actor, { entity: 'printTemplate', action: 'delete', code: bizCode }, async (tx, w) => {
    const row = await findTemplate(tx, bizCode, true);
    if (row.state === 'enabled') throw conflict('启用中的模板不能删除，请先停用');
    await w.touch(printTemplates, eq(printTemplates.id, row.id), { deletedAt: sql`now()` });
    await w.audit();
  });
}

/**
 * The template a document prints with: the one named (it must be enabled and of the type), else
 * the enabled template for the document's core enterprise, else the type's general one.
 */
export async function printingTemplate(
  ex: Executor,
  bizType: BizType,
  coreCompCode: string | null,
  tplBizCode: string | undefined,
): Promise<Row> {
  if (tplBizCode) {
    const row = await findTemplate(ex, tplBizCode);
    if (row.bizType !== bizType) throw badInput(`模板「${row.name}」不是${BIZ_TYPE_LABELS[bizType]}模板`);
    if (row.state !== 'enabled') throw conflict(`模板「${row.name}」已停用，不能打印`);
    return row;
  }
  const rows = await ex
    .select()
    .from(printTemplates)
    .where(and(live, eq(printTemplates.bizType, bizType), eq(printTemplates.state, 'enabled')));
  const chosen =
    (coreCompCode ? rows.find((r) => r.coreCompCode === coreCompCode) : undefined) ??
    rows.find((r) => r.coreCompCode === null);
  if (!chosen) throw conflict(`没有启用的${BIZ_TYPE_LABELS[bizType]}模板，请先在打印模板中启用`);
  return chosen;
}

/** A template filled with a document's data, then sanitised once more as a whole. */
export function renderBody(
  bizType: BizType,
  content: string,
  source: PrintSource,
  company: CompanyPrintData,
): string {
  // Our company's name, address, number and seal come from 参数设置 (docs/operations.md).
  const data = buildPrintData(bizType, { ...source.raw, fields: { ...source.raw.fields, ...company } });
  try {
    return sanitizeTemplateHtml(renderTemplate(content, data));
  } catch (err) {
    if (err instanceof TemplateError) throw badInput(err.message);
    throw err;
  }
}
