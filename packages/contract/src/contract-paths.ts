/**
 * Without zod, so that the route guard's chunk can name the list it starts on a cold start.
 *
 * Contracts, changes and handover sheets, without the /api prefix (docs/protocol.md "Paths and methods"). A
 * contract (保理合同) ties a customer (卖方/债权人), payers (付款方/债务人), a credit line, receivables, an amount, dates,
 * an interest rule and a repayment plan (docs/money-rules.md).
 */
const BASE = '/ft/api/contract';
export const CONTRACT_PATHS = {
  list: `${BASE}/list`,
  /** The list's filters and sort as a streamed xlsx (every matching row). */
  listExport: `${BASE}/listExport`,
  dict: `${BASE}/dict`,
  listDict: `${BASE}/list/dict`,
  chgDict: `${BASE}/chg/dict`,
  infoDict: `${BASE}/info/dict`,
  scheDict: `${BASE}/sche/dict`,
  dueDict: `${BASE}/due/dict`,
  businessDict: `${BASE}/business/dict`,
  /** ?bizCode */
  infoView: `${BASE}/info/view`,
  infoSave: `${BASE}/info/save`,
  /** ?bizCode */
  infoDelete: `${BASE}/info/delete`,
  /** ?bizCode, body auditBody */
  infoAudit: `${BASE}/info/audit`,
  infoUnAudit: `${BASE}/info/unAudit`,
  /** Customers that hold an approved credit (the editor's customer picker). */
  custList: `${BASE}/info/custlist`,
  /** Our receiving bank accounts (the repayment account picker). */
  bank: `${BASE}/info/bank`,
  /** ?bizCode: may a prepayment be raised from this contract? Answers its open up-front dues. */
  isPrevious: `${BASE}/info/isPrevious`,
  /** ?custCode: the customer's company record. */
  compInfo: `${BASE}/comp/info`,
  /** ?bizCode (change): contract info now and as proposed. */
  chgInfoView: `${BASE}/chg/info/view`,
  changeSave: `${BASE}/change/save`,
  changeView: `${BASE}/change/view`,
  changeList: `${BASE}/change/list`,
  changeDelete: `${BASE}/change/delete`,
  changeAudit: `${BASE}/change/audit`,
  changeUnAudit: `${BASE}/change/unAudit`,
  /** ?contBizCode: the dues (应收费用) the rule suggests for the contract. */
  due: `${BASE}/due`,
  dueSave: `${BASE}/due/save`,
  /** ?contBizCode */
  dueView: `${BASE}/due/view`,
  chgDueView: `${BASE}/chg/due/view`,
  planType: `${BASE}/scheme/planType`,
  schemeSave: `${BASE}/scheme/save`,
  /** A plan computed and returned, not saved (the editor's 生成还款计划). */
  planAdd: `${BASE}/scheme/planAdd`,
  /** ?contBizCode */
  schemeView: `${BASE}/scheme/view`,
  chgSchemeView: `${BASE}/chg/scheme/view`,
  businessSave: `${BASE}/businessInfo/save`,
  /** ?contBizCode */
  businessView: `${BASE}/businessInfo/view`,
  chgBusinessView: `${BASE}/chg/businessInfo/view`,
  /** ?contractdetailCode: every file ever attached to the business info, removed ones included. */
  fileHistory: `${BASE}/businessInfo/getFileHistory`,
  fileSave: `${BASE}/file/save`,
  /** ?contBizCode */
  fileView: `${BASE}/file/view`,
  chgFileView: `${BASE}/chg/file/view`,
  /** ?platCredBizCode: a new contract prefilled from a platform credit (customer, lines). */
  init: `${BASE}/init`,
  /** ?custCode: the customer's approved lines with their available amounts. */
  credInit: `${BASE}/cred/init`,
  /** ?bizCode (change): the lines, counting what this contract already occupies as available. */
  chgCredInit: `${BASE}/chg/cred/init`,
  /** ?bizCode: may a change be raised? Answers the change prefilled with the current values. */
  isChange: `${BASE}/isChange`,
  /** ?bizCode: 放款初始化, a new 放款单 prefilled from an approved contract (LoanInit, loan.ts). */
  isLoan: `${BASE}/isLoan`,
  /** ?contBizCode */
  payerInfo: `${BASE}/getPayerInfo`,
  /** ?bizCode (change) */
  chgPayerInfo: `${BASE}/chg/getPayerInfo`,
  /** multipart xlsx -> ImportPreview<ReceivableItem>; nothing is saved. */
  importReceivables: `${BASE}/import/receivables`,
  /** 期初导入 (opening balances): the template with its two sheets' exact headers. */
  openingTemplate: `${BASE}/opening/template`,
  /** multipart xlsx -> OpeningPreview: every row checked by a trial import rolled back; nothing saved. */
  openingPreview: `${BASE}/opening/preview`,
  /** multipart xlsx + field mode ('all' | 'valid') -> OpeningResult: the rows imported. */
  openingImport: `${BASE}/opening/import`,
  /** multipart xlsx -> ImportPreview<CustomPlanRow>; nothing is saved. */
  resolvePlanExcel: '/ft/api/loan/apply/resovlePlanExcel',
  /** Staff of our company (业务经理 picker): { userId, name, deptCode, deptName }[]. */
  companyMember: '/admin/portal/api/loan/apply/getCompanyMember',
} as const;

const HANDOVER = `${BASE}/handover`;
export const HANDOVER_PATHS = {
  list: `${HANDOVER}/list`,
  /** ?bizCode[&departmentCode][&companyCode] */
  view: `${HANDOVER}/view`,
  save: `${HANDOVER}/save`,
  /** ?bizCode */
  del: `${HANDOVER}/del`,
  audit: `${HANDOVER}/audit`,
  unAudit: `${HANDOVER}/unAudit`,
  /** ?contBizCode: a new sheet prefilled with the contract's usual originals. */
  init: `${HANDOVER}/init`,
  /** body contractPickSchema: contracts by 合同号 or customer name, for a new sheet's picker. */
  contracts: `${HANDOVER}/contracts`,
} as const;
