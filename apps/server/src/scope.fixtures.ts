import { sql, type SQL } from 'drizzle-orm';
import { nextCode } from './platform/db/codes';
import { queryRows, type Db } from './platform/db/client';

/**
 * Rows for the kinds the demo data does not make (scope.test.ts): one of each, as their makers'
 * organisation would leave it, made by the system (no organisation) so that they lie outside any
 * scope but 全部数据. Written directly: what is under test is who may reach them, not how they are
 * made (each module's own tests cover that).
 */
export async function addScopeFixtures(db: Db): Promise<void> {
  const code = (kind: string) => nextCode(db, kind);
  /** Inserts only into a table the demo left empty. */
  const ensure = async (table: string, insert: SQL) => {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${sql.identifier(table)}`,
    );
    if (row!.n === 0) await db.execute(insert);
  };
  const contract = sql`(select id from contracts where deleted_at is null order by id limit 1)`;
  const credit = sql`(select id from credits where deleted_at is null order by id limit 1)`;
  const line = sql`(select id from credit_lines where kind = 'platform' order by id limit 1)`;
  const company = sql`(select comp_code from companies where deleted_at is null order by id limit 1)`;
  const paid = sql`(select id from paids where deleted_at is null order by id limit 1)`;
  const bank = sql`(select biz_code from bank_accounts where owner_type = 'self' and deleted_at is null order by id limit 1)`;
  await ensure(
    'contract_details',
    sql`insert into contract_details (biz_code, contract_id, trade_contract_no, goods_name, trade_amount)
    values (${await code('contract_detail')}, ${contract}, 'TC-SCOPE', '钢材', 100000)`,
  );
  await ensure(
    'contract_changes',
    sql`insert into contract_changes (biz_code, contract_id, reason, proposal)
    values (${await code('contract_change')}, ${contract}, '范围测试', '{}'::jsonb)`,
  );
  await ensure(
    'handovers',
    sql`insert into handovers (biz_code, contract_id, handover_name, receiver_name, handover_date)
    values (${await code('handover')}, ${contract}, '李经办', '王复核', '2026-01-10')`,
  );
  await ensure(
    'prepayments',
    sql`insert into prepayments (biz_code, contract_id, method, bank_biz_code, receive_date, amount)
    values (${await code('prepayment')}, ${contract}, 'transfer', ${bank}, '2026-01-10', 100)`,
  );
  await ensure(
    'paid_reds',
    sql`insert into paid_reds (biz_code, paid_id, red_date)
    values (${await code('paid_red')}, ${paid}, '2026-01-14')`,
  );
  await ensure(
    'loan_reds',
    sql`insert into loan_reds (biz_code, loan_id, reason)
    select ${await code('loan_red')}, id, '范围测试' from loans where deleted_at is null order by id limit 1`,
  );
  await ensure(
    'buybacks',
    sql`insert into buybacks (biz_code, contract_id, buyback_date, principal, interest, fee, penalty, amount)
    values (${await code('buyback')}, ${contract}, '2026-01-14', 100, 0, 0, 0, 100)`,
  );
  await ensure(
    'buyback_settlements',
    sql`insert into buyback_settlements (biz_code, buyback_id, income_id, settle_date, amount)
    select ${await code('buyback_settle')}, b.id, i.id, '2026-01-15', 10 from buybacks b, incomes i
     where b.deleted_at is null and i.deleted_at is null order by b.id, i.id limit 1`,
  );
  await ensure(
    'bad_debts',
    sql`insert into bad_debts (biz_code, contract_id, write_off_date, principal, interest, fee, penalty, amount)
    values (${await code('bad_debt')}, ${contract}, '2026-01-14', 100, 0, 0, 0, 100)`,
  );
  await ensure(
    'class_adjustments',
    sql`insert into class_adjustments (biz_code, contract_id, to_class, reason)
    values (${await code('class_adj')}, ${contract}, 'watch', '范围测试')`,
  );
  await ensure(
    'cred_distributions',
    sql`insert into cred_distributions (biz_code, credit_id, parent_line_id, total_amount)
    values (${await code('cred_dist')}, ${credit}, ${line}, 100)`,
  );
  await ensure(
    'cred_changes',
    sql`insert into cred_changes (biz_code, credit_id, line_id, change_type, old_limit, new_limit, old_end_date, reason)
    values (${await code('cred_chg')}, ${credit}, ${line}, 'raise', 100, 200, '2026-12-31', '范围测试')`,
  );
  await ensure(
    'comp_info_changes',
    sql`insert into comp_info_changes (biz_code, comp_code, base_version, before_values, comp_name,
      uscc_code, comp_type, legal_person, reg_capital)
    select ${await code('comp_info_change')}, comp_code, version, '{}'::jsonb, comp_name, uscc_code, comp_type,
           legal_person, reg_capital from companies where comp_code = ${company}`,
  );
  await ensure(
    'comp_manager_changes',
    sql`insert into comp_manager_changes (biz_code, comp_code, kind, new_user_name, new_mobile,
      new_id_card_no, reason)
    values (${await code('comp_manager_change')}, ${company}, 'new', '周新', '13900000001', '310115198001010016', '范围测试')`,
  );
  await ensure(
    'comp_roles',
    sql`insert into comp_roles (role_code, comp_code, role_name)
    values (${await code('comp_role')}, ${company}, '出纳')`,
  );
  await ensure(
    'comp_depts',
    sql`insert into comp_depts (dept_code, comp_code, dept_name)
    values (${await code('comp_dept')}, ${company}, '财务部')`,
  );
}
