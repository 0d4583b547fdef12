import { and, asc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import { interestRuleCalc, type InterestRuleCalc } from '@portal/contract/plan/rule';
import type { RuleView } from '@portal/contract/ruler';
import { ruleListSchema, ruleSaveSchema } from '@portal/contract/ruler';
import type { z } from 'zod';
import type { Db, Executor } from '../../platform/db/client';
import { registryKey, UsageChecks } from '../../platform/module';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { interestRules } from './schema';

type Row = typeof interestRules.$inferSelect;

/**
 * Modules whose documents refer to rules (contracts) register here, so that a rule in use cannot
 * be deleted without this module knowing theirs. A check answers why the rule is in use, or null.
 */
export const RULE_USAGE = registryKey('ruler.ruleUsage', () => new UsageChecks());

function toView(r: Row): RuleView {
  return {
    ...(r.calc as InterestRuleCalc),
    bizCode: r.bizCode,
    version: r.version,
    name: r.name,
    state: r.state as RuleView['state'],
    contBizCode: r.contBizCode,
    remark: r.remark,
    updatedAt: r.updatedAt,
  };
}

const live = isNull(interestRules.deletedAt);

export async function listRules(db: Db, q: z.output<typeof ruleListSchema>) {
  const where: SQL[] = [live];
  if (q.contBizCode) where.push(eq(interestRules.contBizCode, q.contBizCode));
  else where.push(isNull(interestRules.contBizCode));
  if (q.name) where.push(ilike(interestRules.name, likePattern(q.name)));
  if (q.method) where.push(eq(interestRules.method, q.method));
  if (q.state) where.push(eq(interestRules.state, q.state));
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(interestRules)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: interestRules.bizCode,
          name: interestRules.name,
          annualRate: interestRules.annualRate,
          updatedAt: interestRules.updatedAt,
        },
        [asc(interestRules.bizCode)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${interestRules} where ${cond}`);
  return page(rows.map(toView), total, q);
}

export async function viewRule(
  ex: Executor,
  by: { bizCode?: string | undefined; contBizCode?: string | undefined },
): Promise<RuleView> {
  if (!by.bizCode && !by.contBizCode) throw badInput('规则编号不能为空');
  const cond = by.bizCode
    ? eq(interestRules.bizCode, by.bizCode)
    : eq(interestRules.contBizCode, by.contBizCode!);
  const [row] = await ex.select().from(interestRules).where(and(cond, live)).limit(1);
  if (!row) throw notFound('计息规则');
  return toView(row);
}

/** Enabled catalogue rules for pickers (docs/protocol.md "Values on the wire"). */
export async function ruleDict(db: Db) {
  const rows = await db
    .select({ code: interestRules.bizCode, label: interestRules.name })
    .from(interestRules)
    .where(and(live, isNull(interestRules.contBizCode), eq(interestRules.state, 'enabled')))
    .orderBy(asc(interestRules.name));
  return rows;
}

/** The calculation part of a rule, for the contract to snapshot at approval. */
export async function ruleCalc(ex: Executor, bizCode: string): Promise<InterestRuleCalc> {
  const rule = await viewRule(ex, { bizCode });
  return interestRuleCalc.parse(rule);
}

export async function saveRule(
  db: Db,
  input: z.output<typeof ruleSaveSchema>,
  actor: Actor,
): Promise<{ bizCode: string }> {
  const { bizCode, version, name, state, contBizCode, remark, ...calcInput } = input;
  const calc = interestRuleCalc.parse(calcInput);
  const values = {
    name,
    state,
    remark: remark ?? null,
    calc,
    annualRate: calc.annualRate,
    method: calc.method,
  };
  const cmd = { code: bizCode, version, what: '计息规则' };
  return runCommand(
    db,
    actor,
    { entity: 'interestRule', action: bizCode ? 'update' : 'create', ...cmd },
    async (tx, w) => {
      if (!bizCode) {
        if (contBizCode) {
          const [existing] = await tx
            .select({ id: interestRules.id })
            .from(interestRules)
            .where(and(eq(interestRules.contBizCode, contBizCode), live));
          if (existing) throw conflict('该合同已有业务配置，请修改原配置');
        }
        const code = await nextCode(tx, 'rule');
        await tx.insert(interestRules).values({
          ...values,
          bizCode: code,
          contBizCode: contBizCode ?? null,
          createdBy: actor.userId,
          updatedBy: actor.userId,
        });
        await w.audit({ code, detail: values });
        return { bizCode: code };
      }
      if (version === undefined) throw badInput('版本号不能为空');
      const [current] = await tx
        .select()
        .from(interestRules)
        .where(and(eq(interestRules.bizCode, bizCode), live));
      if (!current) throw notFound('计息规则');
      if ((current.contBizCode ?? undefined) !== contBizCode) throw badInput('合同编号与原规则不一致');
      await w.update(interestRules, and(eq(interestRules.bizCode, bizCode), live)!, values);
      await w.audit({ detail: { before: current.calc, after: calc } });
      return { bizCode };
    },
  );
}

export async function deleteRule(db: Db, bizCode: string, actor: Actor, usage: UsageChecks): Promise<void> {
  await runCommand(db, actor, { entity: 'interestRule', action: 'delete', code: bizCode }, async (tx, w) => {
    const [row] = await tx
      .select()
      .from(interestRules)
      .where(and(eq(interestRules.bizCode, bizCode), live))
      .for('update');
    if (!row) throw notFound('计息规则');
    const reason = await usage.first(tx, bizCode);
    if (reason) throw conflict(`计息规则正在使用中，不能删除：${reason}`);
    await w.touch(interestRules, eq(interestRules.id, row.id), { deletedAt: sql`now()` });
    await w.audit();
  });
}
