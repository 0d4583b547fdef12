import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { companyDict } from '../company';
import { addDept } from './depts';
import { checkRegistration, saveUser } from './users';
import { saveRelation } from './relations';

const PEOPLE = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊'];

/** Demo: two departments and three users (one still pending) per customer, a few relations. */
export async function seedDemoCrm({ db, clock }: SeedContext): Promise<void> {
  const customers = (await companyDict(db, {})).slice(0, 6);
  for (const [i, c] of customers.entries()) {
    const { deptCode: finance } = await addDept(
      db,
      { compCode: c.code, deptName: '财务部', sort: 1 },
      SYSTEM_ACTOR,
    );
    await addDept(db, { compCode: c.code, deptName: '业务部', sort: 2 }, SYSTEM_ACTOR);
    for (let k = 0; k < 3; k++) {
      const { userCode } = await saveUser(
        db,
        {
          compCode: c.code,
          userName: PEOPLE[(i + k) % PEOPLE.length]!,
          mobile: `1990${String(3_000_000 + i * 10 + k).padStart(7, '0')}`,
          deptCode: finance,
          post: k === 0 ? '财务经理' : '经办人',
        },
        SYSTEM_ACTOR,
      );
      // The last user of each enterprise stays 待审核 for /crm/frim/frimcheck.
      if (k < 2) await checkRegistration(db, userCode, true, '资料齐全', SYSTEM_ACTOR);
    }
  }
  const today = clock.today();
  const year = Number(today.slice(0, 4));
  for (let i = 1; i < customers.length; i++) {
    await saveRelation(
      db,
      {
        relType: i % 2 === 1 ? 'supplier' : 'distributor',
        coreCompCode: customers[0]!.code,
        relCompCode: customers[i]!.code,
        startDate: `${year}-01-01`,
        endDate: `${year + 1}-12-31`,
      },
      SYSTEM_ACTOR,
    );
  }
}
