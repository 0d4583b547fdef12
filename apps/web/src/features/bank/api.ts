import { BANK_PATHS, type BankAccountView, type BankSave } from '@portal/contract/bank';
import { update } from '../../shared/request/http';

export const saveAccount = (body: BankSave) => update<{ bizCode: string }>(BANK_PATHS.save, body);
export const deleteAccount = (a: BankAccountView) =>
  update(BANK_PATHS.del, undefined, {
    query: { bizCode: a.bizCode },
    confirm: `确定要删除银行账户「${a.accountName} ${a.accountNo}」吗？`,
  });
export const setDefaultAccount = (a: BankAccountView) =>
  update(BANK_PATHS.setDefault, undefined, {
    query: { bizCode: a.bizCode },
    confirm: `确定要将「${a.bankName} ${a.accountNo}」设为默认账户吗？`,
  });

export { useBankDict } from '../../shared/bank/bank-dict';
