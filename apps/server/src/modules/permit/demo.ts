import type { PermitArea } from '@portal/contract/permit';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import type { SeedContext } from '../../platform/module';
import { companyDict } from '../company';
import { userCandidates } from './queries';
import { openPermit, savePermit, setRoles } from './service';

/**
 * Demo (fresh database; new records are version 0, an opening makes it 1): a few customers admitted to each area, one only saved, one role change,
 * and up to two registered users of the first customer admitted to 凭证.
 */
export async function seedDemoPermits({ db }: SeedContext): Promise<void> {
  const customers = (await companyDict(db, {})).slice(0, 4);
  const plan: [number, PermitArea, string[], boolean][] = [
    [0, 'ec', ['holder'], true],
    [1, 'ec', ['holder'], true],
    [2, 'ec', ['holder', 'funder'], false],
    [0, 'dw', ['core'], true],
    [1, 'dw', ['financier'], true],
    [0, 'fc', ['core'], true],
    [3, 'fc', ['member'], true],
  ];
  let firstEc: string | undefined;
  for (const [i, area, roles, open] of plan) {
    const c = customers[i];
    if (!c) continue;
    const { bizCode } = await savePermit(db, 'cust', { area, key: c.code, roles }, SYSTEM_ACTOR);
    if (open) await openPermit(db, 'cust', bizCode, area, 0, SYSTEM_ACTOR);
    if (i === 0 && area === 'ec') firstEc = bizCode;
  }
  if (!firstEc || !customers[0]) return;
  await setRoles(
    db,
    'cust',
    { bizCode: firstEc, version: 1, area: 'ec', roles: ['issuer', 'holder'], reason: '核心企业开立凭证' },
    SYSTEM_ACTOR,
  );
  for (const u of (await userCandidates(db, customers[0].code)).slice(0, 2)) {
    const { bizCode } = await savePermit(
      db,
      'user',
      { area: 'ec', key: u.userCode, roles: ['operator'] },
      SYSTEM_ACTOR,
    );
    await openPermit(db, 'user', bizCode, 'ec', 0, SYSTEM_ACTOR);
  }
}
