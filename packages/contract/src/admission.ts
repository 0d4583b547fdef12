import { z } from 'zod';
import { code, optionalCode, optionalDate, optionalOneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';
import { isValidIdCardNo } from './crm-change';
import { FILE_TOKEN_PATTERN } from './files';
import { DOC_STATES, submitFlag, type DocState } from './workflow';

/**
 * 客户准入 (docs/admission.md): the business side (业务部) enters a customer and its bank account,
 * then raises a 客户准入单 carrying the KYC material; the risk checker approves it through the
 * workflow (type `custAdmission`, screen ft-cust-admit), and only then may the customer hold a credit
 * or a contract. Not the 准入 of modules/permit, which admits a customer into a partner site.
 */
const BASE = '/ft/api/customer/admission';
export const ADMISSION_PATHS = {
  list: `${BASE}/list`,
  /** ?bizCode */
  view: `${BASE}/view`,
  save: `${BASE}/save`,
  /** ?bizCode */
  del: `${BASE}/del`,
  audit: `${BASE}/audit`,
  unAudit: `${BASE}/unAudit`,
} as const;

export const ADMISSION_MENU = 'ft-cust-admit';
export const ADMISSION_DOC_TYPE = 'custAdmission';

/** The KYC files a 客户准入单 carries, one each, all required. */
export const KYC_FILES = ['licenseFile', 'legalIdFile', 'controllerFile', 'bankProofFile'] as const;
export type KycFile = (typeof KYC_FILES)[number];
export const KYC_FILE_LABELS: Record<KycFile, string> = {
  licenseFile: '营业执照',
  legalIdFile: '法定代表人身份证件',
  controllerFile: '实际控制人/受益所有人证明',
  bankProofFile: '银行账户证明',
};

const kycFile = (label: string) =>
  z
    .string({
      error: (i) => (i.input === undefined || i.input === null ? `请上传${label}` : `${label}格式不正确`),
    })
    .regex(FILE_TOKEN_PATTERN, `${label}格式不正确`);

const idCardNo = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z
      .string({ error: `${label}不能为空` })
      .min(1, `${label}不能为空`)
      .refine(isValidIdCardNo, `${label}格式不正确`),
  );

export const admissionSaveSchema = z.object({
  /** Absent: a new 准入单; present: changes a draft or rejected one. */
  bizCode: optionalCode('准入单编号'),
  version: version.optional(),
  compCode: code('企业客户'),
  legalIdNo: idCardNo('法定代表人身份证号'),
  controllerName: text('实际控制人/受益所有人', 200),
  /** The customer's own account that the bank proof shows. */
  bankBizCode: code('银行账户'),
  licenseFile: kycFile(KYC_FILE_LABELS.licenseFile),
  legalIdFile: kycFile(KYC_FILE_LABELS.legalIdFile),
  controllerFile: kycFile(KYC_FILE_LABELS.controllerFile),
  bankProofFile: kycFile(KYC_FILE_LABELS.bankProofFile),
  remark: optionalText('备注', 500, { multiline: true }),
  ...submitFlag,
});
export type AdmissionSave = z.input<typeof admissionSaveSchema>;

export const admissionListSchema = listSchema(
  {
    bizCode: optionalCode('准入单编号'),
    compCode: optionalCode('企业客户'),
    compName: optionalText('企业名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
    createdStart: optionalDate('创建日期起'),
    createdEnd: optionalDate('创建日期止'),
  },
  ['bizCode', 'createdAt', 'updatedAt'],
);
export type AdmissionListInput = z.input<typeof admissionListSchema>;
export const admissionCodeQuery = z.object({ bizCode: code('准入单编号') });

export interface AdmissionRow {
  bizCode: string;
  compCode: string;
  compName: string;
  usccCode: string;
  legalPerson: string;
  state: DocState;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AdmissionFile {
  fileToken: string;
  originFileName: string;
}

export interface AdmissionView extends AdmissionRow {
  version: number;
  legalIdNo: string;
  controllerName: string;
  bankBizCode: string;
  /** 开户行 and account number of the named account, as it reads now. */
  bankLabel: string;
  files: Record<KycFile, AdmissionFile | null>;
  remark: string | null;
  approvedAt: string | null;
}

/** The refusal of a credit or contract for a customer not (yet) admitted. */
export const NOT_ADMITTED = (label: string, name: string) =>
  `${label}「${name}」尚未通过客户准入，不能办理授信或合同`;
