/**
 * A realistic, deterministic portfolio written straight into a migrated database in bulk
 * (INSERT … SELECT over generate_series: the database builds the rows, nothing round-trips per
 * row). Scale 1: 20,000 customers, 20,000 approved credits with their platform lines, 100,000
 * contracts with 1,200,000 plan items, 2,000 staff in 200 organisations. "Random" values are
 * fixed functions of the row number, so two runs give the same data.
 *
 * Money adds up the way the product keeps it: Σ principal of a contract's items = its financing
 * (the residue on the last item); items due before the business date are paid except every 7th
 * contract's last two due items (overdue); what a contract occupies is its financing less the
 * principal repaid, and each line's occupied amount is the sum over its contracts.
 */

export interface SeedSql {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export interface SeedCounts {
  customers: number;
  depts: number;
  users: number;
  contracts: number;
}

export function countsAt(scale: number): SeedCounts {
  return {
    customers: Math.max(20, Math.round(20_000 * scale)),
    depts: 200,
    users: Math.max(20, Math.round(2_000 * scale)),
    contracts: Math.max(100, Math.round(100_000 * scale)),
  };
}

const OFFSET = 100_000_000; // codes above anything the product's sequences hand out in a run

/** Runs every step; answers rows per table and the seconds each took. */
export async function seed(
  db: SeedSql,
  scale: number,
  asOf: string,
  log: (line: string) => void = console.info,
): Promise<Record<string, { rows: number; seconds: number }>> {
  const n = countsAt(scale);
  const out: Record<string, { rows: number; seconds: number }> = {};
  const step = async (name: string, rows: number, sql: string, params: unknown[] = []) => {
    const t = performance.now();
    await db.query(sql, params);
    const seconds = (performance.now() - t) / 1000;
    out[name] = { rows, seconds };
    log(
      `${name.padEnd(22)} ${String(rows).padStart(9)} rows  ${seconds.toFixed(1)} s  ${Math.round(rows / seconds)} rows/s`,
    );
  };
  const code = (expr: string) => `lpad((${OFFSET} + ${expr})::text, 12, '0')`;

  await step(
    'depts',
    n.depts,
    `insert into depts (biz_code, name, parent_id, sort)
     select ${code('g')}, '业务' || g || '部', null, g from generate_series(1, $1::int) g`,
    [n.depts],
  );
  await step(
    'users',
    n.users,
    `insert into users (user_code, user_name, real_name, dept_id, password_hash)
     select ${code('g')}, 'staff' || g, '员工' || g,
            (select id from depts where biz_code = ${code(`1 + (g % ${n.depts})`)}), 'x'
       from generate_series(1, $1::int) g`,
    [n.users],
  );
  await step(
    'companies',
    n.customers,
    `insert into companies (comp_code, comp_name, uscc_code, comp_type, roles, legal_person, reg_capital, state)
     select ${code('g')}, '基准客户' || g || '有限公司', '91' || lpad(g::text, 16, '0'), 'private',
            '{supplier}', '法人' || g, 1000000 + (g % 97) * 100000, 'enabled'
       from generate_series(1, $1::int) g`,
    [n.customers],
  );
  // One approved platform credit per customer, 50,000,000 cyclical, valid around the business date.
  await step(
    'credits',
    n.customers,
    `insert into credits (biz_code, cust_code, cust_name, limit_amount, start_date, end_date, cycle, product, state, approved_at)
     select ${code('g')}, ${code('g')}, '基准客户' || g || '有限公司', 50000000, $2::date - 730, $2::date + 730,
            'cyclical', 'factoring', 'approved', now()
       from generate_series(1, $1::int) g`,
    [n.customers, asOf],
  );
  await step(
    'credit_lines',
    n.customers,
    `insert into credit_lines (biz_code, kind, credit_id, cust_code, cust_name, limit_amount, start_date, end_date, cycle)
     select c.biz_code, 'platform', c.id, c.cust_code, c.cust_name, c.limit_amount, c.start_date, c.end_date, c.cycle
       from credits c where c.biz_code >= ${code('1')}`,
  );
  // Contracts: financing 100,000–2,000,000; start spread over the two years before the business
  // date (so some are finished, most run, a few are overdue); 90 % approved and disbursed.
  await step(
    'contracts',
    n.contracts,
    `insert into contracts (biz_code, contract_no, recourse, disclosure, product, cust_code, cust_name,
            plat_cred_biz_code, line_code, financing_ratio, financing_amount, receivables_amount,
            start_date, maturity_date, rule_biz_code, rule_snapshot, bank_biz_code, occupied_amount,
            status, state, approved_at, created_by, loan_state, loan_date, loan_amount)
     select ${code('g')}, 'BL-' || lpad(g::text, 8, '0'),
            case when g % 3 = 0 then 'without' else 'with' end,
            case when g % 5 = 0 then 'undisclosed' else 'disclosed' end, 'factoring',
            ${code(`1 + (g % ${n.customers})`)}, '基准客户' || (1 + (g % ${n.customers})) || '有限公司',
            ${code(`1 + (g % ${n.customers})`)}, ${code(`1 + (g % ${n.customers})`)},
            0.8, f.amount, f.amount * 1.25,
            s.start, (s.start + interval '12 months')::date, ${code('1')},
            '{"annualRate":"0.0720","dayCount":"ACT/360","method":"EQUAL_PRINCIPAL","interestCollection":"BACK","feeRate":"0","feeCollection":"BACK","penalty":{"mode":"MULTIPLE","value":"1.5"},"graceDays":3,"countBothEnds":false,"allocationOrder":["PENALTY","INTEREST","FEE","PRINCIPAL"],"inAdvanceOrder":["PRINCIPAL","PENALTY","FEE","INTEREST"]}'::jsonb,
            ${code('1')}, 0,
            case when g % 10 = 0 then 'none' else 'effective' end,
            case when g % 10 = 0 then 'pending' else 'approved' end,
            case when g % 10 = 0 then null else now() end,
            1 + (g % ${n.users}),
            -- Approved contracts were disbursed in full on their start date (no up-front items).
            case when g % 10 = 0 then 'none' else 'loaned' end,
            case when g % 10 = 0 then null else s.start end,
            case when g % 10 = 0 then null else f.amount end
       from generate_series(1, $1::int) g,
            lateral (select (100000 + ((g::bigint * 7919) % 1900) * 1000)::numeric(18, 2) as amount) f,
            lateral (select ($2::date - ((g::bigint * 104729) % 700)::int)::date as start) s`,
    [n.contracts, asOf],
  );
  // 12 monthly items each: equal principal (residue on the last), interest on the declining balance.
  // The per-item balance trigger is off for the bulk insert; the balances are set in one pass after.
  await db.query('alter table contract_plan_items disable trigger contract_plan_items_roll');
  await step(
    'contract_plan_items',
    n.contracts * 12,
    `insert into contract_plan_items (contract_id, period, start_date, due_date, days, principal, interest, fee,
            principal_paid, interest_paid, fee_paid)
     select c.id, k,
            (c.start_date + (k - 1) * interval '1 month')::date, (c.start_date + k * interval '1 month')::date, 30,
            p.principal, p.interest, 0,
            case when paid then p.principal else 0 end, case when paid then p.interest else 0 end, 0
       from contracts c
       cross join generate_series(1, 12) k
       cross join lateral (
         select case when k = 12 then c.financing_amount - round(c.financing_amount / 12, 2) * 11
                     else round(c.financing_amount / 12, 2) end as principal,
                round((c.financing_amount - round(c.financing_amount / 12, 2) * (k - 1)) * 0.072 / 12, 2) as interest
       ) p
       cross join lateral (
         select c.status = 'effective' and (c.start_date + k * interval '1 month')::date < $1::date
                and not (c.id % 7 = 0 and (c.start_date + (k + 2) * interval '1 month')::date >= $1::date) as paid
       ) q
      where c.biz_code >= ${code('1')}`,
    [asOf],
  );
  await db.query('alter table contract_plan_items enable trigger contract_plan_items_roll');
  await step(
    'balances & occupy',
    n.contracts,
    `with open as (
       select i.contract_id, sum(i.principal - i.principal_paid) as left_principal,
              sum(i.interest - i.interest_paid) as left_interest, sum(i.fee - i.fee_paid) as left_fee,
              bool_and(i.principal = i.principal_paid and i.interest = i.interest_paid) as all_paid
         from contract_plan_items i group by i.contract_id)
     update contracts c set occupied_amount = case when c.status = 'none' then 0 else o.left_principal end,
                            principal_open = o.left_principal, interest_open = o.left_interest, fee_open = o.left_fee,
                            status = case when c.status = 'effective' and o.all_paid then 'settled' else c.status end
       from open o where o.contract_id = c.id and c.biz_code >= ${code('1')}`,
  );
  await step(
    'line figures',
    n.customers,
    `update credit_lines l set occupied_amount = s.occupied
       from (select line_code, sum(occupied_amount) as occupied from contracts where deleted_at is null group by line_code) s
      where s.line_code = l.biz_code`,
  );
  // Incomings and their write-offs: the paid items of a contract in chunks of three periods, one
  // bank receipt per chunk written off whole against those items (principal and interest lines),
  // so incomings, write-offs and plan items reconcile to the cent. The receipt is dated on the
  // chunk's first due date (the later items paid in advance): dated on its last, the earlier items
  // would be paid late without their penalty, which the product's own rules (itemAsOf) show as
  // 逾期 with penalty owing, on the plan view and the dashboard alike.
  await db.query(`create temp table seed_chunks on commit drop as
     select row_number() over (order by contract_id, chunk)::int as n, contract_id, chunk, amount, principal, first_due
       from (select i.contract_id, (i.period + 2) / 3 as chunk, sum(i.principal_paid + i.interest_paid) as amount,
                    sum(i.principal_paid) as principal, min(i.due_date) as first_due
               from contract_plan_items i join contracts c on c.id = i.contract_id
              where i.principal_paid > 0 and c.biz_code >= ${code('1')}
              group by 1, 2) s`);
  const [{ chunks }] = (await db.query('select count(*)::int as chunks from seed_chunks')) as [
    { chunks: number },
  ];
  await step(
    'incomes',
    chunks,
    `insert into incomes (biz_code, bank_biz_code, payer_name, payer_account, payer_bank, amount, allocated, value_date,
            serial_no, source, state, approved_at, created_by)
     select ${code('s.n')}, ${code('1')}, c.cust_name, '6222' || lpad(c.id::text, 12, '0'), '工商银行', s.amount, s.amount,
            s.first_due, 'BS' || lpad(s.n::text, 10, '0'), 'import', 'approved', now(), c.created_by
       from seed_chunks s join contracts c on c.id = s.contract_id`,
  );
  await step(
    'paids',
    chunks,
    `insert into paids (biz_code, income_id, contract_id, paid_date, kind, amount, principal, released, state,
            approved_at, posting_seq, created_by)
     select ${code('s.n')}, i.id, s.contract_id, s.first_due, 'normal', s.amount, s.principal, s.principal, 'approved',
            now(), s.n, i.created_by
       from seed_chunks s join incomes i on i.biz_code = ${code('s.n')}`,
  );
  await step(
    'paid_lines',
    chunks * 6,
    `insert into paid_lines (paid_id, plan_item_id, component, amount)
     select p.id, it.id, comp.component, comp.amount
       from seed_chunks s
       join paids p on p.biz_code = ${code('s.n')}
       join contract_plan_items it on it.contract_id = s.contract_id and (it.period + 2) / 3 = s.chunk
            and it.principal_paid > 0
       cross join lateral (values ('PRINCIPAL', it.principal_paid), ('INTEREST', it.interest_paid)) comp(component, amount)
      where comp.amount > 0`,
  );
  await db.query(`select setval('paid_posting_seq', greatest((select max(n) from seed_chunks), 1))`);
  // The vouchers those events post (modules/voucher/journal.ts): a disbursement debits 应收保理款 and
  // credits 银行存款; an incoming debits 银行存款 and credits 预收款项; a write-off debits 预收款项 and
  // credits 应收保理款 and 利息收入. Numbered 记-0001… per month in date order, like the product.
  await db.query(`create temp table seed_docs on commit drop as
     select row_number() over (partition by to_char(d, 'YYYY-MM') order by d, doc_type, doc_code)::int as no, *
       from (select c.loan_date as d, 'loan' as doc_type, c.biz_code as doc_code, '放款 ' || c.cust_name as summary,
                    c.cust_code, c.cust_name, c.contract_no, c.financing_amount as a1, 0::numeric as a2
               from contracts c where c.loan_state = 'loaned' and c.biz_code >= ${code('1')}
             union all
             select i.value_date, 'income', i.biz_code, '来款 ' || i.payer_name, null, i.payer_name, null, i.amount, 0
               from incomes i where i.biz_code >= ${code('1')}
             union all
             select p.paid_date, 'paid', p.biz_code, '来款核销 ' || c.cust_name, c.cust_code, c.cust_name,
                    c.contract_no, p.principal, p.amount - p.principal
               from paids p join contracts c on c.id = p.contract_id where p.biz_code >= ${code('1')}) s`);
  await db.query(`insert into voucher_accounts (role, code, name)
     values ('bank', '1002', '银行存款'), ('factoring', '1135', '应收保理款'), ('advance', '2203', '预收款项'),
            ('interestIncome', '6011', '利息收入')
     on conflict do nothing`);
  await step(
    'vouchers',
    0,
    `insert into vouchers (period, no, voucher_date, summary, doc_type, doc_code)
     select to_char(d, 'YYYY-MM'), no, d, summary, doc_type, doc_code from seed_docs`,
  );
  await db.query(`insert into voucher_periods (period, last_no)
     select period, max(no) from vouchers group by period
     on conflict (period) do update set last_no = greatest(voucher_periods.last_no, excluded.last_no)`);
  // The per-line trigger that keeps voucher_account_periods (migration 0038) updates the same few
  // rows for every line: inside one transaction each update walks the versions the earlier ones
  // left, so 1.5 M lines took hours. It is off for this insert, which adds its own totals at once.
  await db.query(`alter table voucher_lines disable trigger voucher_lines_roll`);
  await step(
    'voucher_lines',
    0,
    `with ins as (insert into voucher_lines (voucher_id, line_no, role, account_code, account_name, summary, debit,
            credit, cust_code, cust_name, contract_no)
     select v.id, l.line_no, l.role, a.code, a.name, s.summary, l.debit, l.credit, s.cust_code, s.cust_name, s.contract_no
       from seed_docs s join vouchers v on v.doc_type = s.doc_type and v.doc_code = s.doc_code
       cross join lateral (values
         (1, case s.doc_type when 'loan' then 'factoring' when 'income' then 'bank' else 'advance' end, s.a1 + s.a2, 0::numeric),
         (2, case s.doc_type when 'loan' then 'bank' when 'income' then 'advance' else 'factoring' end, 0, s.a1),
         (3, 'interestIncome', 0, s.a2)) l(line_no, role, debit, credit)
       join voucher_accounts a on a.role = l.role
      where l.debit + l.credit > 0
     returning voucher_id, account_code, account_name, debit, credit)
     insert into voucher_account_periods as t (period, account_code, account_name, debit, credit, lines)
     select v.period, ins.account_code, ins.account_name, sum(ins.debit), sum(ins.credit), count(*)
       from ins join vouchers v on v.id = ins.voucher_id
      group by 1, 2, 3
     on conflict (period, account_code, account_name)
        do update set debit = t.debit + excluded.debit, credit = t.credit + excluded.credit, lines = t.lines + excluded.lines`,
  );
  await db.query(`alter table voucher_lines enable trigger voucher_lines_roll`);
  await step('analyze', 0, 'analyze');
  return out;
}
