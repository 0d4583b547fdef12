/**
 * The catalogue of menu and button codes (docs/protocol.md "Menu and button codes"): one file that the web
 * generates its routes and menus from, the server checks every call against, and that is seeded
 * into the menu table edited by the role screens. Button codes are `${menuCode}:${action}`.
 */

export type Layout = 'management' | 'website';

export interface TabDef {
  path: string;
  title: string;
}

export interface MenuDef {
  /** Role code; a route without one is open to every signed-in user. */
  code?: string;
  /**
   * For a route without a role (open to every signed-in user): the code its calls and
   * buttons are checked against. It is not a route role (the route stays open), but it sits in the
   * role tree like a menu code, so the server can refuse the screen's data to those without it.
   */
  permCode?: string;
  title: string;
  /** Absolute web path. */
  path: string;
  hidden?: boolean;
  redirect?: string;
  noCache?: boolean;
  affix?: boolean;
  layout?: Layout;
  /** Button actions of this screen; their codes are `${code}:${action}`. */
  actions?: readonly Action[];
  tabs?: readonly TabDef[];
  children?: readonly MenuDef[];
}

export const ACTION_TITLES = {
  view: '查看',
  add: '新增',
  save: '保存',
  update: '修改',
  delete: '删除',
  audit: '审核',
  unAudit: '驳回',
  pass: '通过',
  reject: '拒绝',
  rushRed: '冲红',
  export: '导出',
  import: '导入',
  enable: '启用',
  disable: '停用',
  setDefault: '设为默认',
  resetPassword: '重置密码',
  cfgSave: '保存权限配置',
  status: '启停用',
  print: '打印',
  isPrevious: '生成前期款',
  isChange: '发起变更',
  isLoan: '放款初始化',
  openingImport: '期初导入',
  open: '开通',
  setRole: '设置角色',
  circulate: '传阅',
  unlock: '解锁',
  forceLogout: '强退',
  publish: '发布/撤回',
  run: '立即执行',
  noticeConfirm: '登记转让通知确认',
  noticeWaive: '豁免转让通知确认',
} as const;

export type Action = keyof typeof ACTION_TITLES;

export function buttonCode(menuCode: string, action: Action): string {
  return `${menuCode}:${action}`;
}

const DOC: readonly Action[] = ['add', 'save', 'delete', 'audit', 'unAudit', 'print', 'circulate'];
const CREDIT_DOC: readonly Action[] = ['add', 'save', 'delete', 'pass', 'reject', 'circulate'];

const CORP_EDIT_TABS: readonly TabDef[] = [
  { path: 'corporation', title: '基本信息' },
  { path: 'employee', title: '企业用户' },
  { path: 'corporationAdd', title: '股东及实际控制人' },
  { path: 'role', title: '企业角色' },
  { path: 'account', title: '账户信息' },
  { path: 'bill', title: '开票信息' },
  { path: 'des', title: '企业介绍' },
  { path: 'file', title: '资料文件' },
];
const CORP_VIEW_TABS: readonly TabDef[] = [
  { path: 'corporation', title: '基本信息' },
  { path: 'account', title: '账户信息' },
  { path: 'bill', title: '开票信息' },
  { path: 'des', title: '企业介绍' },
  { path: 'employee', title: '企业用户' },
  { path: 'file', title: '资料文件' },
  { path: 'role', title: '企业角色' },
  { path: 'approval', title: '审核信息' },
];
const BASIC_TABS: readonly TabDef[] = [{ path: 'basic-info', title: '基本信息' }];

/** The website-layout tree with its role codes exactly as the product names them. */
export const WEBSITE_MENUS: readonly MenuDef[] = [
  {
    code: 'crm',
    title: '客户管理',
    path: '/crm',
    redirect: '/crm/corporation',
    layout: 'website',
    children: [
      {
        code: 'crm-cor',
        title: '企业管理',
        path: '/crm/corporation',
        redirect: '/crm/corporation/list',
        children: [
          {
            code: 'crm-cor-cor',
            title: '企业列表',
            path: '/crm/corporation/list',
            actions: ['add', 'update', 'delete', 'enable', 'disable', 'export'],
          },
          {
            code: 'crm-cor-cor-e',
            title: '企业编辑',
            path: '/crm/corporation/edit',
            hidden: true,
            tabs: CORP_EDIT_TABS,
            actions: ['save'],
          },
          {
            code: 'crm-cor-cor-v',
            title: '企业查看',
            path: '/crm/corporation/view',
            hidden: true,
            tabs: CORP_VIEW_TABS,
          },
          { code: 'crm-cor-info', title: '企业信息变更', path: '/crm/corporation/change', actions: DOC },
          {
            code: 'crm-cor-info',
            title: '企业信息变更编辑',
            path: '/crm/corporation/change-editor',
            hidden: true,
            tabs: [
              { path: 'at-info', title: '认证信息' },
              { path: 'other-info', title: '其他信息' },
            ],
          },
          {
            code: 'crm-cor-info',
            title: '企业信息变更查看',
            path: '/crm/corporation/change-view',
            hidden: true,
            tabs: [
              { path: 'after', title: '变更信息' },
              { path: 'reviewInformation', title: '审核信息' },
            ],
          },
          {
            code: 'crm-cor-bank',
            title: '银行信息管理',
            path: '/crm/corporation/bank',
            actions: ['add', 'save', 'delete', 'setDefault'],
          },
          {
            code: 'crm-cor-bank',
            title: '银行信息编辑',
            path: '/crm/corporation/bank-editor',
            hidden: true,
            tabs: [...BASIC_TABS, { path: 'employee', title: '企业用户' }],
          },
          {
            code: 'crm-cor-bank',
            title: '银行信息查看',
            path: '/crm/corporation/bank-view',
            hidden: true,
            tabs: [...BASIC_TABS, { path: 'employee', title: '企业用户' }],
          },
          {
            permCode: 'crm-cor-org',
            title: '组织架构',
            path: '/crm/corporation/org',
            actions: ['add', 'update', 'delete'],
          },
          { code: 'crm-cor-mg', title: '管理员变更', path: '/crm/corporation/manager', actions: DOC },
          {
            code: 'crm-cor-mg',
            title: '管理员变更编辑',
            path: '/crm/corporation/manager-edit',
            hidden: true,
          },
          { code: 'crm-cor-mg', title: '管理员变更新增', path: '/crm/corporation/manager-add', hidden: true },
          {
            code: 'crm-cor-mg',
            title: '管理员变更查看',
            path: '/crm/corporation/manager-view',
            hidden: true,
          },
          {
            permCode: 'crm-cor-rel',
            title: '企业关系维护',
            path: '/crm/corporation/relation',
            actions: ['add', 'update', 'delete'],
          },
        ],
      },
      {
        title: '企业用户',
        path: '/crm/frim',
        redirect: '/crm/frim/list',
        children: [
          {
            permCode: 'crm-frim',
            title: '企业用户',
            path: '/crm/frim/list',
            actions: ['audit', 'unAudit', 'enable', 'disable'],
          },
          {
            title: '企业用户审核',
            path: '/crm/frim/frimcheck',
            hidden: true,
            tabs: [{ path: 'base', title: '基础信息' }],
          },
        ],
      },
    ],
  },
  {
    title: '凭证',
    path: '/ec',
    redirect: '/ec/permit/comp',
    layout: 'website',
    children: [
      {
        title: '准入',
        path: '/ec/permit',
        redirect: '/ec/permit/comp',
        children: [
          {
            code: 'ec-permit-comp',
            title: '企业客户',
            path: '/ec/permit/comp',
            actions: ['add', 'save', 'open', 'disable', 'setRole'],
          },
          {
            permCode: 'ec-permit-chg',
            title: '企业角色变更',
            path: '/ec/permit/comp-role-chg',
            actions: ['setRole'],
          },
          {
            title: '企业角色变更编辑',
            path: '/ec/permit/comp-role-chg-editor',
            hidden: true,
            tabs: BASIC_TABS,
          },
          {
            title: '企业角色变更查看',
            path: '/ec/permit/comp-role-chg-view',
            hidden: true,
            tabs: BASIC_TABS,
          },
          {
            permCode: 'ec-permit-personal',
            title: '企业用户',
            path: '/ec/permit/personal',
            actions: ['add', 'save', 'open', 'disable', 'setRole'],
          },
        ],
      },
    ],
  },
  {
    title: '银企链',
    path: '/fc',
    redirect: '/fc/fc',
    layout: 'website',
    children: [
      {
        code: 'fc-fc',
        title: '银企链',
        path: '/fc/fc',
        actions: ['add', 'save', 'open', 'disable', 'setRole'],
      },
      // Added to the product's tree: the admission record of this area, so that it opens under 银企链 (the
      // ec one is /ec/permit/comp-role-chg-editor).
      { title: '银企链准入记录', path: '/fc/fc-editor', hidden: true, tabs: BASIC_TABS },
    ],
  },
  {
    title: '山高E融',
    path: '/dw',
    redirect: '/dw/permit/comp',
    layout: 'website',
    children: [
      {
        title: '准入',
        path: '/dw/permit',
        redirect: '/dw/permit/comp',
        children: [
          {
            code: 'dw-permit-comp',
            title: '企业客户',
            path: '/dw/permit/comp',
            actions: ['add', 'save', 'open', 'disable', 'setRole'],
          },
          // Added to the product's tree: the target of 返回 with judge=dwPersonal, the enterprise-
          // user admissions of this area, reached from 企业客户 (so it takes that route's role); its
          // calls and buttons are checked against its own code dw-permit-personal (under
          // dw-permit-comp in the role tree).
          {
            code: 'dw-permit-comp',
            permCode: 'dw-permit-personal',
            title: '企业用户',
            path: '/dw/permit/personal',
            hidden: true,
            actions: ['add', 'save', 'open', 'disable', 'setRole'],
          },
          // Added to the product's tree: the admission record of this area (customers and users), so it
          // opens under 山高E融.
          { title: '山高E融准入记录', path: '/dw/permit/comp-editor', hidden: true, tabs: BASIC_TABS },
        ],
      },
    ],
  },
];

/** The async (management-layout) route table, with our codes. */
export const MANAGEMENT_MENUS: readonly MenuDef[] = [
  {
    code: 'ft-contract',
    title: '合同管理',
    path: '/factoring/contract',
    redirect: '/factoring/contract/info',
    children: [
      {
        code: 'ft-contract-info',
        title: '合同信息',
        path: '/factoring/contract/info',
        actions: [
          ...DOC,
          'isPrevious',
          'isChange',
          'isLoan',
          'import',
          'openingImport',
          'export',
          'noticeConfirm',
          'noticeWaive',
        ],
      },
      {
        code: 'ft-contract-info',
        title: '合同编辑',
        path: '/factoring/contract/info-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-contract-info', title: '合同查看', path: '/factoring/contract/info-view', hidden: true },
      { code: 'ft-contract-chg', title: '合同变更', path: '/factoring/contract/change', actions: DOC },
      {
        code: 'ft-contract-chg',
        title: '合同变更编辑',
        path: '/factoring/contract/change-editor',
        hidden: true,
        noCache: true,
      },
      {
        code: 'ft-contract-chg',
        title: '合同变更查看',
        path: '/factoring/contract/change-view',
        hidden: true,
      },
      {
        code: 'ft-contract-handover',
        title: '资料交接单',
        path: '/factoring/contract/handover',
        actions: DOC,
      },
      {
        code: 'ft-contract-handover',
        title: '资料交接单编辑',
        path: '/factoring/contract/handover-editor',
        hidden: true,
        noCache: true,
      },
      {
        code: 'ft-contract-handover',
        title: '资料交接单查看',
        path: '/factoring/contract/handover-view',
        hidden: true,
      },
      // 逾期催收 (docs/collections.md): the overdue worklist and its 催收记录; `add` records a contact,
      // `update` sets the assignee and the next action.
      {
        code: 'ft-collection',
        title: '逾期催收',
        path: '/factoring/contract/collection',
        actions: ['add', 'update', 'export', 'print'],
      },
    ],
  },
  {
    code: 'ft-pa',
    title: '前期款管理',
    path: '/factoring/pa',
    redirect: '/factoring/pa/mgr',
    children: [
      { code: 'ft-pa-mgr', title: '前期款', path: '/factoring/pa/mgr', actions: [...DOC, 'export'] },
      {
        code: 'ft-pa-mgr',
        title: '前期款编辑',
        path: '/factoring/pa/mgr-editor',
        hidden: true,
        noCache: true,
        tabs: BASIC_TABS,
      },
      {
        code: 'ft-pa-mgr',
        title: '前期款查看',
        path: '/factoring/pa/mgr-view',
        hidden: true,
        tabs: BASIC_TABS,
      },
    ],
  },
  {
    code: 'ft-accounts',
    title: '账务管理',
    path: '/factoring/accounts',
    redirect: '/factoring/accounts/income',
    children: [
      // 放款单 (disbursement, docs/money-lifecycle.md): replaces the contract list's one-click 放款.
      {
        code: 'ft-loan',
        title: '放款单',
        path: '/factoring/accounts/loan',
        actions: [...DOC, 'rushRed', 'export'],
      },
      {
        code: 'ft-loan',
        title: '放款单编辑',
        path: '/factoring/accounts/loan-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-loan', title: '放款单查看', path: '/factoring/accounts/loan-view', hidden: true },
      { code: 'ft-loan', title: '放款单冲红查看', path: '/factoring/accounts/loan-red-view', hidden: true },
      {
        code: 'ft-income',
        title: '来款',
        path: '/factoring/accounts/income',
        actions: [...DOC, 'import', 'export'],
      },
      {
        code: 'ft-income',
        title: '来款编辑',
        path: '/factoring/accounts/income-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-income', title: '来款查看', path: '/factoring/accounts/income-view', hidden: true },
      {
        code: 'ft-paid',
        title: '来款核销',
        path: '/factoring/accounts/paid',
        actions: [...DOC, 'rushRed', 'export'],
      },
      {
        code: 'ft-paid',
        title: '来款核销编辑',
        path: '/factoring/accounts/paid-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-paid', title: '来款核销查看', path: '/factoring/accounts/paid-view', hidden: true },
      {
        code: 'ft-paid-red',
        title: '来款核销冲红',
        path: '/factoring/accounts/paid-red',
        actions: ['delete', 'audit', 'unAudit', 'circulate'],
      },
      {
        code: 'ft-paid-red',
        title: '来款核销冲红查看',
        path: '/factoring/accounts/paid-red-view',
        hidden: true,
      },
      // 回购 (docs/buyback.md): a with-recourse contract's receivable bought back by the seller, and
      // the 回购款核销 that settle it (both documents under this screen's buttons).
      {
        code: 'ft-buyback',
        title: '回购单',
        path: '/factoring/accounts/buyback',
        actions: [...DOC, 'rushRed', 'export'],
      },
      {
        code: 'ft-buyback',
        title: '回购单编辑',
        path: '/factoring/accounts/buyback-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-buyback', title: '回购单查看', path: '/factoring/accounts/buyback-view', hidden: true },
      {
        code: 'ft-buyback',
        title: '回购款核销查看',
        path: '/factoring/accounts/buyback-settle-view',
        hidden: true,
      },
      // 核销坏账 (docs/accounting.md "Bad-debt write-off"): a 损失 contract written off, four eyes.
      {
        code: 'ft-bad-debt',
        title: '核销坏账',
        path: '/factoring/accounts/bad-debt',
        actions: ['add', 'save', 'delete', 'audit', 'unAudit', 'circulate', 'rushRed', 'export'],
      },
      {
        code: 'ft-bad-debt',
        title: '核销坏账编辑',
        path: '/factoring/accounts/bad-debt-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-bad-debt', title: '核销坏账查看', path: '/factoring/accounts/bad-debt-view', hidden: true },
      { code: 'ft-reconcile', title: '对账', path: '/factoring/accounts/reconcile', actions: ['export'] },
      // 五级分类 (docs/classification.md): the class of each live contract and its 分类调整单.
      {
        code: 'ft-classification',
        title: '五级分类',
        path: '/factoring/accounts/classification',
        actions: [...DOC, 'export'],
      },
      {
        code: 'ft-classification',
        title: '分类调整单编辑',
        path: '/factoring/accounts/classification-editor',
        hidden: true,
        noCache: true,
      },
      {
        code: 'ft-classification',
        title: '分类调整单查看',
        path: '/factoring/accounts/classification-view',
        hidden: true,
      },
      // 台账 and 对账单 (docs/ledger.md): read-only outputs of the posted figures.
      {
        code: 'ft-ledger-portfolio',
        title: '保理业务台账',
        path: '/factoring/accounts/ledger',
        actions: ['export'],
      },
      {
        code: 'ft-ledger-statement',
        title: '客户对账单',
        path: '/factoring/accounts/statement',
        actions: ['export', 'print'],
      },
      // 会计凭证 (docs/accounting.md): journals of the approved money events, their mapping and trial balance.
      { code: 'ft-voucher', title: '会计凭证', path: '/factoring/accounts/voucher', actions: ['export'] },
      {
        code: 'ft-voucher-trial',
        title: '试算平衡',
        path: '/factoring/accounts/voucher-trial',
        actions: ['export'],
      },
      // 月结 (docs/accounting.md "Month close"): finance asks (add), a checker approves (audit).
      {
        code: 'ft-voucher-close',
        title: '月结',
        path: '/factoring/accounts/voucher-close',
        actions: ['add', 'audit'],
      },
      {
        code: 'ft-voucher-account',
        title: '科目映射',
        path: '/factoring/accounts/voucher-account',
        actions: ['save'],
      },
      // 监管报表 (docs/ledger.md "The regulator's figures"): the monthly figures for the regulator.
      { code: 'ft-regulator', title: '监管报表', path: '/factoring/accounts/regulator', actions: ['export'] },
    ],
  },
  {
    code: 'ft-credit',
    title: '授信管理',
    path: '/factoring/credit',
    redirect: '/factoring/credit/info',
    children: [
      {
        code: 'ft-credit-info',
        title: '授信',
        path: '/factoring/credit/info',
        actions: [...CREDIT_DOC, 'import', 'print', 'export'],
      },
      {
        code: 'ft-credit-info',
        title: '授信编辑',
        path: '/factoring/credit/info-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-credit-info', title: '授信查看', path: '/factoring/credit/info-view', hidden: true },
      {
        code: 'ft-credit-dist',
        title: '额度分配',
        path: '/factoring/credit/distribution',
        actions: CREDIT_DOC,
      },
      {
        code: 'ft-credit-dist',
        title: '额度分配编辑',
        path: '/factoring/credit/distribution-editor',
        hidden: true,
        noCache: true,
      },
      {
        code: 'ft-credit-dist',
        title: '额度分配查看',
        path: '/factoring/credit/distribution-view',
        hidden: true,
      },
      { code: 'ft-credit-chg', title: '额度变更', path: '/factoring/credit/change', actions: CREDIT_DOC },
      {
        code: 'ft-credit-chg',
        title: '额度变更编辑',
        path: '/factoring/credit/change-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-credit-chg', title: '额度变更查看', path: '/factoring/credit/change-view', hidden: true },
      // Debtors (docs/credit.md "Debtors"): 债务人额度 across all sellers (`save` proposes a line or
      // a limit, `pass`/`reject` decide it: never its maker), 待匹配 names to link to a customer,
      // and the concentration of exposure by debtor.
      {
        code: 'ft-debtor-line',
        title: '债务人额度',
        path: '/factoring/credit/debtor-line',
        actions: ['save', 'pass', 'reject'],
      },
      {
        code: 'ft-debtor-match',
        title: '债务人待匹配',
        path: '/factoring/credit/debtor-match',
        actions: ['save'],
      },
      { code: 'ft-debtor-conc', title: '债务人集中度', path: '/factoring/credit/debtor-concentration' },
    ],
  },
  {
    code: 'ft-config',
    title: '业务配置',
    path: '/factoring/config',
    redirect: '/factoring/config/company',
    children: [
      {
        code: 'ft-company',
        title: '企业客户',
        path: '/factoring/config/company',
        actions: ['add', 'update', 'delete', 'enable', 'disable', 'export'],
      },
      {
        code: 'ft-company',
        title: '企业客户编辑',
        path: '/factoring/config/company-editor',
        hidden: true,
        noCache: true,
      },
      // 客户准入 (docs/admission.md): 业务部 raises it with the KYC material, 风控 admits the customer.
      { code: 'ft-cust-admit', title: '客户准入', path: '/factoring/config/admission', actions: DOC },
      {
        code: 'ft-cust-admit',
        title: '客户准入编辑',
        path: '/factoring/config/admission-editor',
        hidden: true,
        noCache: true,
      },
      {
        code: 'ft-cust-admit',
        title: '客户准入查看',
        path: '/factoring/config/admission-view',
        hidden: true,
      },
      {
        code: 'ft-bank',
        title: '银行账户',
        path: '/factoring/config/bank',
        actions: ['add', 'save', 'delete', 'setDefault'],
      },
      {
        code: 'ft-ruler',
        title: '计息规则',
        path: '/factoring/config/ruler',
        actions: ['add', 'save', 'delete'],
      },
      {
        code: 'ft-ruler',
        title: '计息规则编辑',
        path: '/factoring/config/ruler-editor',
        hidden: true,
        noCache: true,
      },
      {
        code: 'ft-print',
        title: '打印模板',
        path: '/factoring/config/print',
        actions: ['add', 'save', 'delete', 'enable', 'disable'],
      },
      {
        code: 'ft-print',
        title: '打印模板编辑',
        path: '/factoring/config/print-editor',
        hidden: true,
        noCache: true,
      },
      { code: 'ft-process', title: '审批流程', path: '/factoring/config/process', actions: ['save'] },
      // 营业日 and the 日终 job log (docs/business-date.md): `save` moves the date and runs the day-end.
      { code: 'ft-bizdate', title: '营业日与日终', path: '/factoring/config/bizdate', actions: ['save'] },
    ],
  },
  {
    code: 'permission',
    title: '权限管理',
    path: '/permission',
    redirect: '/permission/role',
    children: [
      {
        code: 'permission-role',
        title: '角色管理',
        path: '/permission/role',
        actions: ['add', 'update', 'delete', 'cfgSave'],
      },
      {
        code: 'permission-org',
        title: '组织管理',
        path: '/permission/org',
        actions: ['add', 'update', 'delete'],
      },
      {
        code: 'permission-user',
        title: '用户管理',
        path: '/permission/user',
        actions: ['add', 'update', 'delete', 'status', 'resetPassword', 'export'],
      },
    ],
  },
  // 系统监控, named as RuoYi names it: what the portal records, read by its administrators.
  {
    code: 'monitor',
    title: '系统监控',
    path: '/monitor',
    redirect: '/monitor/operlog',
    children: [
      { code: 'monitor-operlog', title: '操作日志', path: '/monitor/operlog', actions: ['export'] },
      {
        code: 'monitor-logininfor',
        title: '登录日志',
        path: '/monitor/logininfor',
        actions: ['unlock', 'export'],
      },
      { code: 'monitor-online', title: '在线用户', path: '/monitor/online', actions: ['forceLogout'] },
    ],
  },
  // 系统管理: settings changed without a restart (docs/operations.md "Settings an administrator changes").
  {
    code: 'system',
    title: '系统管理',
    path: '/system',
    redirect: '/system/config',
    children: [
      { code: 'system-config', title: '参数设置', path: '/system/config', actions: ['save'] },
      // 通知公告 (docs/operations.md "Announcements"): `publish` both publishes and withdraws.
      {
        code: 'system-notice',
        title: '通知公告',
        path: '/system/notice',
        actions: ['add', 'update', 'delete', 'publish'],
      },
      // 定时任务 (docs/operations.md "Scheduled jobs"): `update` changes a schedule, `status` pauses
      // and resumes it, `run` is 立即执行.
      { code: 'system-job', title: '定时任务', path: '/system/job', actions: ['update', 'status', 'run'] },
      // 服务监控 (docs/operations.md "Monitoring"): the serving process's figures, read only.
      { code: 'system-server', title: '服务监控', path: '/system/server' },
    ],
  },
];

export const ADMIN_CODE = 'admin';

export interface CatalogueEntry {
  code: string;
  title: string;
  parentCode: string | null;
  kind: 'menu' | 'button';
  sort: number;
}

/**
 * Flattened catalogue: every distinct menu code once (the first route that names it gives the
 * title), each of its buttons under it. Seeded into the menu table; the role tree shows it.
 */
export function flattenCatalogue(
  menus: readonly MenuDef[] = [...MANAGEMENT_MENUS, ...WEBSITE_MENUS],
): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  const seen = new Set<string>();
  const walk = (nodes: readonly MenuDef[], parentCode: string | null) => {
    for (const node of nodes) {
      let here = parentCode;
      // A route with both a role and a permCode: the permCode (its calls and buttons) sits under the role.
      const own = node.permCode ?? node.code;
      if (node.code && node.code !== own && !seen.has(node.code)) {
        seen.add(node.code);
        out.push({ code: node.code, title: node.title, parentCode, kind: 'menu', sort: out.length });
      }
      const ownParent = node.code && node.code !== own ? node.code : parentCode;
      if (own && !seen.has(own)) {
        seen.add(own);
        out.push({ code: own, title: node.title, parentCode: ownParent, kind: 'menu', sort: out.length });
      }
      if (own) {
        if (node.code) here = node.code;
        for (const action of node.actions ?? []) {
          const code = buttonCode(own, action);
          if (seen.has(code)) continue;
          seen.add(code);
          out.push({
            code,
            title: ACTION_TITLES[action],
            parentCode: own,
            kind: 'button',
            sort: out.length,
          });
        }
      }
      if (node.children) walk(node.children, here);
    }
  };
  walk(menus, null);
  return out;
}

export const ALL_CODES: ReadonlySet<string> = new Set(flattenCatalogue().map((e) => e.code));

/** Narrow helper for server routes: a code that is in the catalogue, checked at compile time by use. */
export function menu(code: string): string {
  if (!ALL_CODES.has(code)) throw new Error(`unknown menu code ${code}`);
  return code;
}

export function button(menuCode: string, action: Action): string {
  return menu(buttonCode(menuCode, action));
}
