import {
  DEBTOR_PATHS,
  type Concentration,
  type DebtorLineRow,
  type DebtorLineView,
  type UnmatchedRow,
} from '@portal/contract/debtor';
import { post } from '../../shared/request/http';

/** The debtor calls as the screens use them (docs/credit.md "Debtors"). */
export const debtorApi = {
  unmatched: () => post<UnmatchedRow[]>(DEBTOR_PATHS.unmatched),
  lines: () => post<DebtorLineRow[]>(DEBTOR_PATHS.lines),
  line: (bizCode: string) => post<DebtorLineView>(DEBTOR_PATHS.line, undefined, { query: { bizCode } }),
  concentration: () => post<Concentration>(DEBTOR_PATHS.concentration),
};
