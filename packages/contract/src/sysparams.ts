import { z } from 'zod';
import { int, optionalText, text } from './fields';
import { usccProblem } from './uscc';

/**
 * 参数设置 (docs/operations.md "Settings an administrator changes"): the settings that change
 * without a restart. The environment gives their values at a database's first start only; after
 * that they live in the database and every server follows them.
 */
export const SYSPARAM_PATHS = {
  get: '/system/api/config/get',
  save: '/system/api/config/save',
} as const;

export const SYSPARAM_MENU = 'system-config';

/** A seal image travels inside the printed page as a data: URL (no fetch from elsewhere). */
export const SEAL_MAX_BYTES = 200 * 1024;
const SEAL_PATTERN = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;

/** Bytes of the image a base64 data: URL carries. */
export function dataUrlBytes(url: string): number {
  const b64 = url.slice(url.indexOf(',') + 1);
  return Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
}

const seal = z.preprocess(
  (v) => (v === null || v === '' ? undefined : v),
  z
    .string({ error: '公章图片格式不正确' })
    .regex(SEAL_PATTERN, '公章图片必须是PNG或JPEG图片')
    .refine((v) => dataUrlBytes(v) <= SEAL_MAX_BYTES, `公章图片不能超过${SEAL_MAX_BYTES / 1024}KB`)
    .optional(),
);

const regNo = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z
    .string({ error: '统一社会信用代码格式不正确' })
    .normalize('NFKC')
    .trim()
    .toUpperCase()
    .superRefine((value, ctx) => {
      const problem = usccProblem(value, '统一社会信用代码');
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
);

export const PARAM_LABELS = {
  sessionIdleMinutes: '会话空闲超时（分钟）',
  sessionAbsoluteMinutes: '会话最长时长（分钟）',
  uploadLimitMb: '上传文件大小上限（MB）',
  companyName: '公司名称',
  companyAddress: '公司地址',
  companyRegNo: '统一社会信用代码',
  companySeal: '公章图片',
  // Who signs for the company at the foot of the prints (docs/operations.md "Seal and signatory").
  companySignatory: '签字人（法定代表人或授权代表）',
  logRetentionDays: '日志保留天数',
  // 五级分类 thresholds (docs/classification.md): the last overdue day of 关注, 次级 and 可疑.
  classWatchMaxDays: '关注类逾期天数上限',
  classSubstandardMaxDays: '次级类逾期天数上限',
  classDoubtfulMaxDays: '可疑类逾期天数上限',
  // 减值准备 (docs/accounting.md "Provisioning"): the share of a contract's 本金余额 held per class, in %.
  provisionRateNormal: '正常类计提比例（%）',
  provisionRateWatch: '关注类计提比例（%）',
  provisionRateSubstandard: '次级类计提比例（%）',
  provisionRateDoubtful: '可疑类计提比例（%）',
  provisionRateLoss: '损失类计提比例（%）',
  // 催收提醒 (docs/collections.md "Reminders"): T−7, T−1, T+1 and every 7 days after.
  collectBeforeFirstDays: '到期前首次提醒天数',
  collectBeforeLastDays: '到期前末次提醒天数',
  collectAfterFirstDays: '逾期后首次提醒天数',
  collectAfterEveryDays: '逾期后提醒间隔天数',
  // 担保到期提醒 (docs/credit.md "Reminders"): days before a guarantee ends, age of a valuation.
  guaranteeRemindDays: '担保到期前提醒天数',
  collateralValuationMaxDays: '抵质押物估值有效天数',
} as const;
export type ParamKey = keyof typeof PARAM_LABELS;

/** The bounds the screen states and the server enforces. */
export const PARAM_BOUNDS = {
  sessionIdleMinutes: [5, 1440],
  sessionAbsoluteMinutes: [10, 10080],
  uploadLimitMb: [1, 200],
  logRetentionDays: [30, 3650],
  classWatchMaxDays: [1, 3650],
  classSubstandardMaxDays: [1, 3650],
  classDoubtfulMaxDays: [1, 3650],
  collectBeforeFirstDays: [1, 90],
  collectBeforeLastDays: [1, 90],
  collectAfterFirstDays: [1, 90],
  collectAfterEveryDays: [1, 90],
  guaranteeRemindDays: [1, 365],
  collateralValuationMaxDays: [30, 3650],
} as const;

/** The defaults of the guarantee reminders: 30 days before the end, valuations of at most a year. */
export const DEFAULT_GUARANTEE_WATCH = { remindDays: 30, valuationMaxDays: 365 } as const;
/** The provision rates, as the share of 本金余额 in percent, 0 … 100 with two decimals at most. */
export const PROVISION_RATE_KEYS = [
  'provisionRateNormal',
  'provisionRateWatch',
  'provisionRateSubstandard',
  'provisionRateDoubtful',
  'provisionRateLoss',
] as const;
export type ProvisionRateKey = (typeof PROVISION_RATE_KEYS)[number];
/** Commonly used rates (正常 1 %, 关注 2 %, 次级 25 %, 可疑 50 %, 损失 100 %). */
export const DEFAULT_PROVISION_RATES: Record<ProvisionRateKey, string> = {
  provisionRateNormal: '1',
  provisionRateWatch: '2',
  provisionRateSubstandard: '25',
  provisionRateDoubtful: '50',
  provisionRateLoss: '100',
};
const RATE_PATTERN = /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/;
const rate = (k: ProvisionRateKey) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: `请输入${PARAM_LABELS[k]}` })
      .regex(RATE_PATTERN, `${PARAM_LABELS[k]}应为0至100之间的数，最多两位小数`),
  );
/** A validated rate in hundredths of a percent, an exact integer (no binary fraction). */
const hundredths = (v: string) => {
  const [whole = '0', frac = ''] = v.split('.');
  return parseInt(whole, 10) * 100 + parseInt(`${frac}00`.slice(0, 2), 10);
};
const rateRises = (lower: ProvisionRateKey, upper: ProvisionRateKey) => ({
  test: (v: Record<ProvisionRateKey, string>) =>
    !RATE_PATTERN.test(v[upper]) ||
    !RATE_PATTERN.test(v[lower]) ||
    hundredths(v[upper]) >= hundredths(v[lower]),
  path: [upper],
  message: `${PARAM_LABELS[upper]}不能小于${PARAM_LABELS[lower]}`,
});

const bounded = (k: keyof typeof PARAM_BOUNDS) =>
  int(PARAM_LABELS[k], PARAM_BOUNDS[k][0], PARAM_BOUNDS[k][1]);

export const sysParamsSchema = z
  .object({
    sessionIdleMinutes: bounded('sessionIdleMinutes'),
    sessionAbsoluteMinutes: bounded('sessionAbsoluteMinutes'),
    uploadLimitMb: bounded('uploadLimitMb'),
    companyName: text(PARAM_LABELS.companyName, 100),
    companyAddress: optionalText(PARAM_LABELS.companyAddress, 200),
    companyRegNo: regNo,
    companySeal: seal,
    companySignatory: optionalText(PARAM_LABELS.companySignatory, 50),
    logRetentionDays: bounded('logRetentionDays'),
    classWatchMaxDays: bounded('classWatchMaxDays'),
    classSubstandardMaxDays: bounded('classSubstandardMaxDays'),
    classDoubtfulMaxDays: bounded('classDoubtfulMaxDays'),
    provisionRateNormal: rate('provisionRateNormal'),
    provisionRateWatch: rate('provisionRateWatch'),
    provisionRateSubstandard: rate('provisionRateSubstandard'),
    provisionRateDoubtful: rate('provisionRateDoubtful'),
    provisionRateLoss: rate('provisionRateLoss'),
    collectBeforeFirstDays: bounded('collectBeforeFirstDays'),
    collectBeforeLastDays: bounded('collectBeforeLastDays'),
    collectAfterFirstDays: bounded('collectAfterFirstDays'),
    collectAfterEveryDays: bounded('collectAfterEveryDays'),
    guaranteeRemindDays: bounded('guaranteeRemindDays'),
    collateralValuationMaxDays: bounded('collateralValuationMaxDays'),
  })
  .refine((v) => v.sessionAbsoluteMinutes >= v.sessionIdleMinutes, {
    path: ['sessionAbsoluteMinutes'],
    message: '会话最长时长（分钟）不能小于会话空闲超时（分钟）',
  })
  // Each class starts where the one before ends: the bounds must rise strictly.
  .refine((v) => v.classSubstandardMaxDays > v.classWatchMaxDays, {
    path: ['classSubstandardMaxDays'],
    message: '次级类逾期天数上限必须大于关注类逾期天数上限',
  })
  .refine((v) => v.classDoubtfulMaxDays > v.classSubstandardMaxDays, {
    path: ['classDoubtfulMaxDays'],
    message: '可疑类逾期天数上限必须大于次级类逾期天数上限',
  })
  // A worse class never holds less.
  .refine((v) => rateRises('provisionRateNormal', 'provisionRateWatch').test(v), {
    path: ['provisionRateWatch'],
    message: rateRises('provisionRateNormal', 'provisionRateWatch').message,
  })
  .refine((v) => rateRises('provisionRateWatch', 'provisionRateSubstandard').test(v), {
    path: ['provisionRateSubstandard'],
    message: rateRises('provisionRateWatch', 'provisionRateSubstandard').message,
  })
  .refine((v) => rateRises('provisionRateSubstandard', 'provisionRateDoubtful').test(v), {
    path: ['provisionRateDoubtful'],
    message: rateRises('provisionRateSubstandard', 'provisionRateDoubtful').message,
  })
  .refine((v) => rateRises('provisionRateDoubtful', 'provisionRateLoss').test(v), {
    path: ['provisionRateLoss'],
    message: rateRises('provisionRateDoubtful', 'provisionRateLoss').message,
  })
  .refine((v) => v.collectBeforeFirstDays > v.collectBeforeLastDays, {
    path: ['collectBeforeFirstDays'],
    message: '到期前首次提醒天数必须大于到期前末次提醒天数',
  });
export type SysParamsInput = z.input<typeof sysParamsSchema>;
export type SysParams = z.output<typeof sysParamsSchema>;

/** What the screen reads: the values, and when and by whom they were last changed. */
export interface SysParamsView {
  params: SysParams;
  updatedAt: string | null;
  updatedByName: string | null;
}
