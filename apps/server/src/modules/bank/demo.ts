import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { companyDict } from '../company';
import { saveAccount } from './service';

/** Demo accounts: our own collection/payment accounts and one per demo customer. */
export async function seedDemoAccounts({ db }: SeedContext): Promise<void> {
  await saveAccount(
    db,
    {
      ownerType: 'self',
      bankCode: '308',
      branchName: '招商银行上海分行营业部',
      accountName: '本公司',
      accountNo: '121909876510801',
      currency: 'CNY',
      purpose: 'collect',
      isDefault: true,
    },
    SYSTEM_ACTOR,
  );
  await saveAccount(
    db,
    {
      ownerType: 'self',
      bankCode: '102',
      branchName: '中国工商银行上海市分行营业部',
      accountName: '本公司',
      accountNo: '1001244319025801234',
      currency: 'CNY',
      purpose: 'pay',
      isDefault: true,
    },
    SYSTEM_ACTOR,
  );
  const customers = await companyDict(db, { all: true });
  const bankCodes = ['102', '103', '104', '105', '301', '308'];
  for (const [i, c] of customers.entries()) {
    await saveAccount(
      db,
      {
        ownerType: 'customer',
        ownerCode: c.code,
        bankCode: bankCodes[i % bankCodes.length]!,
        branchName: '营业部',
        accountName: c.label,
        accountNo: `62220210${String(1_000_000 + i * 7919).padStart(11, '0')}`,
        currency: 'CNY',
        purpose: 'collect',
        isDefault: true,
      },
      SYSTEM_ACTOR,
    );
  }
}
