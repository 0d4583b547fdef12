import { button, menu } from '@portal/contract/menus';

/** The menus of contract's three documents: 合同信息, 合同变更, 资料交接单. */
export const INFO = 'ft-contract-info';
export const CHG = 'ft-contract-chg';
export const HO = 'ft-contract-handover';

/** Who may read a contract's sections: any of the three menus. */
export const READERS = [menu(INFO), menu(CHG), menu(HO)];
/** Who may write a contract's sections: its add or save button. */
export const EDITORS = [button(INFO, 'add'), button(INFO, 'save')];
