import {
  CONTRACT_PATHS,
  HANDOVER_PATHS,
  type BeforeAfter,
  type BusinessInfoView,
  type ChangeView,
  type CompanyMember,
  type ContractInfo,
  type ContractInit,
  type ContractPick,
  type ContractReceivable,
  type CustomPlanRow,
  type DueItem,
  type DueView,
  type HandoverView,
  type ImportPreview,
  type PayerItem,
  type PlanPreview,
  type SchemeView,
} from '@portal/contract/contract';
import type { DictItem, LineFigures } from '@portal/contract/credit';
import type { FileInfo } from '@portal/contract/files';
import { RULER_PATHS } from '@portal/contract/ruler';
import type { BankAccountView } from '@portal/contract/bank';
import { post, update, type UpdateResult } from '../../shared/request/http';
import { postXlsx } from '../../shared/request/upload-xlsx';

export interface Saved {
  bizCode: string;
  version: number;
  state?: string;
}

const byCode = (bizCode: string) => ({ query: { bizCode } });
const byContract = (contBizCode: string) => ({ query: { contBizCode } });

/** The contract calls of SPEC §7.3 as the screens use them. */
export const contractApi = {
  dict: () => post<DictItem[]>(CONTRACT_PATHS.dict, {}),
  info: (bizCode: string) => post<ContractInfo>(CONTRACT_PATHS.infoView, undefined, byCode(bizCode)),
  scheme: (contBizCode: string) =>
    post<SchemeView>(CONTRACT_PATHS.schemeView, undefined, byContract(contBizCode)),
  dues: (contBizCode: string) => post<DueView[]>(CONTRACT_PATHS.dueView, undefined, byContract(contBizCode)),
  suggestDues: (contBizCode: string) =>
    post<DueItem[]>(CONTRACT_PATHS.due, undefined, byContract(contBizCode)),
  business: (contBizCode: string) =>
    post<BusinessInfoView>(CONTRACT_PATHS.businessView, undefined, byContract(contBizCode)),
  fileHistory: (contractdetailCode: string) =>
    post<(FileInfo & { removed: boolean })[]>(CONTRACT_PATHS.fileHistory, undefined, {
      query: { contractdetailCode },
    }),
  files: (contBizCode: string) =>
    post<FileInfo[]>(CONTRACT_PATHS.fileView, undefined, byContract(contBizCode)),
  payers: (contBizCode: string) =>
    post<PayerItem[]>(CONTRACT_PATHS.payerInfo, undefined, byContract(contBizCode)),
  customers: () =>
    post<{ custCode: string; custName: string; credBizCode: string; endDate: string }[]>(
      CONTRACT_PATHS.custList,
      {},
    ),
  banks: () => post<BankAccountView[]>(CONTRACT_PATHS.bank, {}),
  rules: () => post<{ code: string; label: string }[]>(RULER_PATHS.dict, {}),
  members: () => post<CompanyMember[]>(CONTRACT_PATHS.companyMember, {}),
  init: (platCredBizCode: string) =>
    post<ContractInit>(CONTRACT_PATHS.init, undefined, { query: { platCredBizCode } }),
  lines: (custCode: string) =>
    post<LineFigures[]>(CONTRACT_PATHS.credInit, undefined, { query: { custCode } }),
  planAdd: (body: unknown) => post<PlanPreview>(CONTRACT_PATHS.planAdd, body),
  change: (bizCode: string) => post<ChangeView>(CONTRACT_PATHS.changeView, undefined, byCode(bizCode)),
  changeInit: (bizCode: string) => post<ChangeInit>(CONTRACT_PATHS.isChange, undefined, byCode(bizCode)),
  beforeAfter: <T>(path: string, bizCode: string) => post<BeforeAfter<T>>(path, undefined, byCode(bizCode)),
  handover: (bizCode: string) => post<HandoverView>(HANDOVER_PATHS.view, undefined, byCode(bizCode)),
  /** A new handover sheet's contract picker: searched on the server, without the loading overlay. */
  pickContracts: (keyword: string) =>
    post<ContractPick[]>(HANDOVER_PATHS.contracts, keyword ? { keyword } : {}, { loading: false }),
  handoverInit: (contBizCode: string) =>
    post<Pick<HandoverView, 'contBizCode' | 'contractNo' | 'custName' | 'handoverDate' | 'items'>>(
      HANDOVER_PATHS.init,
      undefined,
      byContract(contBizCode),
    ),
  /** Saves with the SPEC §8 confirmation (此操作将保存…！ 是否继续？). */
  save: <T = Saved>(path: string, body: unknown, what: string): Promise<UpdateResult<T>> =>
    update<T>(path, body, { confirm: `此操作将保存${what}！ 是否继续？` }),
  remove: (path: string, bizCode: string, what: string) =>
    update(path, undefined, { query: { bizCode }, confirm: `确定要删除该${what}吗？` }),
  /** 放款初始化: the prefill of a new 放款单 (answers 409 with the reason when it cannot go out). */
  loanInit: (bizCode: string) => post<unknown>(CONTRACT_PATHS.isLoan, undefined, byCode(bizCode)),
  prepaymentInit: (bizCode: string) => post<unknown>(CONTRACT_PATHS.isPrevious, undefined, byCode(bizCode)),
};

/** What isChange answers: the change editor's starting values. */
export interface ChangeInit {
  contBizCode: string;
  contractNo: string;
  info: {
    financingAmount: string;
    financingRatio: string;
    maturityDate: string;
    lineCode: string;
    ruleBizCode: string;
    bankBizCode: string;
    remark: string | null;
  };
  receivables: ContractReceivable[];
  payers: PayerItem[];
  dues: DueItem[];
}

export const importContractReceivables = (file: File, platCredBizCode?: string) =>
  postXlsx<ImportPreview<ContractReceivable>>(
    CONTRACT_PATHS.importReceivables,
    file,
    platCredBizCode ? { platCredBizCode } : {},
  );

export const importPlanExcel = (file: File, fields: { financingAmount?: string; startDate?: string }) =>
  postXlsx<ImportPreview<CustomPlanRow> & { totalPrincipal: string }>(
    CONTRACT_PATHS.resolvePlanExcel,
    file,
    Object.fromEntries(Object.entries(fields).filter(([, v]) => !!v)) as Record<string, string>,
  );

export const CONTRACT_ROUTES = {
  list: '/factoring/contract/info',
  editor: '/factoring/contract/info-editor',
  view: '/factoring/contract/info-view',
  chgList: '/factoring/contract/change',
  chgEditor: '/factoring/contract/change-editor',
  chgView: '/factoring/contract/change-view',
  hoList: '/factoring/contract/handover',
  hoEditor: '/factoring/contract/handover-editor',
  hoView: '/factoring/contract/handover-view',
  prepayment: '/factoring/pa/mgr-editor/basic-info',
  /** The 放款单 editor (loan feature), opened with ?contBizCode. */
  loanEditor: '/factoring/accounts/loan-editor',
} as const;
