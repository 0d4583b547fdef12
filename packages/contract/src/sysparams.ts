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
  logRetentionDays: '日志保留天数',
  // 五级分类 thresholds (docs/classification.md): the last overdue day of 关注, 次级 and 可疑.
  classWatchMaxDays: '关注类逾期天数上限',
  classSubstandardMaxDays: '次级类逾期天数上限',
  classDoubtfulMaxDays: '可疑类逾期天数上限',
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
} as const;

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
    logRetentionDays: bounded('logRetentionDays'),
    classWatchMaxDays: bounded('classWatchMaxDays'),
    classSubstandardMaxDays: bounded('classSubstandardMaxDays'),
    classDoubtfulMaxDays: bounded('classDoubtfulMaxDays'),
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
  });
export type SysParamsInput = z.input<typeof sysParamsSchema>;
export type SysParams = z.output<typeof sysParamsSchema>;

/** What the screen reads: the values, and when and by whom they were last changed. */
export interface SysParamsView {
  params: SysParams;
  updatedAt: string | null;
  updatedByName: string | null;
}
