import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
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
  type PlanItemView,
  type PlanPreview,
  type SchemeView,
} from '@portal/contract/contract';
import { ASSIGN_NOTICE_PATHS, type NoticeList } from '@portal/contract/assignment';
import type { DictItem, LineFigures } from '@portal/contract/credit';
import type { FileInfo } from '@portal/contract/files';
import { RULER_PATHS } from '@portal/contract/ruler';
import type { BankAccountView } from '@portal/contract/bank';
import { post, update, type UpdateResult } from '../../shared/request/http';
import { postXlsx } from '../../shared/request/upload-xlsx';
import { postDict } from '../../shared/request/dict';

export interface Saved {
  bizCode: string;
  version: number;
  state?: string;
}

const byCode = (bizCode: string) => ({ query: { bizCode } });
const byContract = (contBizCode: string) => ({ query: { contBizCode } });

/** The contract calls as the screens use them. */
export const contractApi = {
  dict: () => postDict<DictItem>(CONTRACT_PATHS.dict, {}),
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
  rules: () => postDict<{ code: string; label: string }>(RULER_PATHS.dict, {}),
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
  /** Saves with the confirmation (此操作将保存…！ 是否继续？). */
  save: <T = Saved>(path: string, body: unknown, what: string): Promise<UpdateResult<T>> =>
    update<T>(path, body, { confirm: `此操作将保存${what}！ 是否继续？` }),
  remove: (path: string, bizCode: string, what: string) =>
    update(path, undefined, { query: { bizCode }, confirm: `确定要删除该${what}吗？` }),
  /** 放款初始化: the prefill of a new 放款单 (answers 409 with the reason when it cannot go out). */
  loanInit: (bizCode: string) => post<unknown>(CONTRACT_PATHS.isLoan, undefined, byCode(bizCode)),
  prepaymentInit: (bizCode: string) => post<unknown>(CONTRACT_PATHS.isPrevious, undefined, byCode(bizCode)),
};

/** The cache keys of one contract's parts; every contract change makes all of them stale. */
export const contractKeys = {
  all: ['contract'] as const,
  /** The contract list (合同信息). */
  list: ['list', CONTRACT_PATHS.list] as const,
  part: (part: string, ...args: unknown[]) => ['contract', part, ...args] as const,
};

const forContract = (bizCode: string) => !!bizCode;

/** One side-by-side read of a contract change (变更前 / 变更后), asked again when its state moves. */
const changeSide =
  <T>(part: string, path: string) =>
  (bizCode: string, state: string | undefined) =>
    queryOptions({
      queryKey: contractKeys.part('chg', part, bizCode, state),
      queryFn: () => contractApi.beforeAfter<T>(path, bizCode),
      enabled: !!bizCode,
    });

/**
 * The contract reads as query options (`useQuery(contractQueries.info(bizCode))`): one key and
 * fetcher per read wherever a screen shows it.
 */
export const contractQueries = {
  info: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('info', bizCode),
      queryFn: () => contractApi.info(bizCode),
      enabled: forContract(bizCode),
    }),
  scheme: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('scheme', bizCode),
      queryFn: () => contractApi.scheme(bizCode),
      enabled: forContract(bizCode),
    }),
  dues: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('dues', bizCode),
      queryFn: () => contractApi.dues(bizCode),
      enabled: forContract(bizCode),
    }),
  business: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('business', bizCode),
      queryFn: () => contractApi.business(bizCode),
      enabled: forContract(bizCode),
    }),
  files: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('files', bizCode),
      queryFn: () => contractApi.files(bizCode),
      enabled: forContract(bizCode),
    }),
  /** The business files' history, of the business record (`contractdetailCode`) once it exists. */
  fileHistory: (contractdetailCode: string | null | undefined) =>
    queryOptions({
      queryKey: contractKeys.part('fileHistory', contractdetailCode),
      queryFn: () => contractApi.fileHistory(contractdetailCode!),
      enabled: !!contractdetailCode,
    }),
  /** A picked platform credit's customer, product, free receivables and lines. */
  init: (platCredBizCode: string | undefined) =>
    queryOptions({
      queryKey: contractKeys.part('init', platCredBizCode),
      queryFn: () => contractApi.init(platCredBizCode!),
      enabled: !!platCredBizCode,
    }),
  /** The up-front items the contract's rule implies (规则金额, 按规则生成): asked afresh each time. */
  suggestedDues: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('suggestedDues', bizCode),
      queryFn: () => contractApi.suggestDues(bizCode),
      staleTime: 0,
    }),
  /** The plan the rule (or an imported custom schedule) gives, before it is saved. */
  planPreview: (bizCode: string, customItems: readonly CustomPlanRow[] | null) =>
    queryOptions({
      queryKey: contractKeys.part('planPreview', bizCode, customItems),
      queryFn: () => contractApi.planAdd({ contBizCode: bizCode, ...(customItems ? { customItems } : {}) }),
      staleTime: 0,
    }),
  /** A customer's lines, which a contract (change) draws on. */
  lines: (custCode: string | undefined) =>
    queryOptions({
      queryKey: contractKeys.part('lines', custCode),
      queryFn: () => contractApi.lines(custCode!),
      enabled: !!custCode,
    }),
  /** The contracts a picker offers for `keyword`; a refusal is shown, not retried. */
  pick: (keyword: string) =>
    queryOptions({
      queryKey: contractKeys.part('pick', keyword),
      queryFn: () => contractApi.pickContracts(keyword),
      staleTime: 30_000,
      retry: false,
    }),
  change: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('change', bizCode),
      queryFn: () => contractApi.change(bizCode),
      enabled: forContract(bizCode),
    }),
  changeInfo: changeSide<Record<string, unknown>>('info', CONTRACT_PATHS.chgInfoView),
  changePlan: changeSide<PlanItemView[]>('plan', CONTRACT_PATHS.chgSchemeView),
  changeDues: changeSide<DueItem[]>('dues', CONTRACT_PATHS.chgDueView),
  changePayers: changeSide<PayerItem[]>('payers', CONTRACT_PATHS.chgPayerInfo),
  handover: (bizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('handover', bizCode),
      queryFn: () => contractApi.handover(bizCode),
      enabled: forContract(bizCode),
    }),
  /** A new handover sheet's starting values from its contract. */
  handoverInit: (contBizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('handoverInit', contBizCode),
      queryFn: () => contractApi.handoverInit(contBizCode),
      enabled: forContract(contBizCode),
    }),
  /** 转让通知 of a contract (without the loading overlay). */
  notices: (contBizCode: string) =>
    queryOptions({
      queryKey: contractKeys.part('notices', contBizCode),
      queryFn: () =>
        post<NoticeList>(ASSIGN_NOTICE_PATHS.list, undefined, { query: { contBizCode }, loading: false }),
      enabled: forContract(contBizCode),
    }),
  customers: () => queryOptions({ queryKey: contractKeys.part('customers'), queryFn: contractApi.customers }),
  rules: () => queryOptions({ queryKey: contractKeys.part('rules'), queryFn: contractApi.rules }),
  banks: () => queryOptions({ queryKey: contractKeys.part('banks'), queryFn: contractApi.banks }),
  members: () => queryOptions({ queryKey: contractKeys.part('members'), queryFn: contractApi.members }),
};

/** What a save of a contract part answers: the new version; 基本信息 also the contract's code. */
export type PartSaved = Pick<Saved, 'version'> & Partial<Pick<Saved, 'bizCode'>>;

/** One save of a contract part: the path, the body and what the confirmation names. */
export interface ContractSave {
  path: string;
  body: unknown;
  what: string;
}

/**
 * Saves a part of a contract (with the 是否继续？ confirmation); a successful save makes the
 * contract's reads and the contract list stale, so every screen showing them fetches again.
 */
export function useContractSave() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body, what }: ContractSave) => contractApi.save<PartSaved>(path, body, what),
    // Not awaited: the screen goes on (navigates, closes a preview) while the reads refetch.
    onSuccess: (r) => {
      if (!r.ok) return;
      void client.invalidateQueries({ queryKey: contractKeys.all });
      // The request layer refreshes every list after a change too: join that call, start none.
      void client.invalidateQueries({ queryKey: contractKeys.list }, { cancelRefetch: false });
    },
  });
}

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
