import { create } from 'zustand';
import type { CompRole, CompType, Industry } from '@portal/contract/company';
import type { CompanyValues, InfoChangeSave } from '@portal/contract/crm-change';

// The 企业信息变更 draft: its form values, the store that keeps it across the editor's two tab
// routes, and the conversions between form values, company values and the save body.

export interface FormValues {
  compName: string;
  usccCode: string;
  legalPerson: string;
  regCapital: string;
  /** 'YYYY-MM-DD' (DateInput). */
  establishDate: string | undefined;
  compType: CompType;
  region: string[];
  address?: string;
  industry?: Industry;
  roles: CompRole[];
  contactName?: string;
  contactPhone?: string;
  contactEmail?: string;
  remark?: string;
}

export interface Draft {
  compCode: string;
  bizCode?: string;
  version?: number;
  reason: string;
  before: CompanyValues;
  values: FormValues;
}

/** The draft being edited survives switching between the 认证信息 and 其他信息 tabs (two routes). */
export const useDrafts = create<{ drafts: Record<string, Draft>; put(key: string, d: Draft): void }>()(
  (set) => ({
    drafts: {},
    put: (key, d) => set((s) => ({ drafts: { ...s.drafts, [key]: d } })),
  }),
);

export const draftKey = (bizCode: string, compCode: string) => (bizCode ? `b:${bizCode}` : `c:${compCode}`);

export function toForm(v: CompanyValues): FormValues {
  return {
    compName: v.compName,
    usccCode: v.usccCode,
    legalPerson: v.legalPerson,
    regCapital: v.regCapital,
    establishDate: v.establishDate ?? undefined,
    compType: v.compType,
    region: [v.provinceCode, v.cityCode, v.areaCode].filter((c): c is string => !!c),
    address: v.address ?? undefined,
    industry: v.industry ?? undefined,
    roles: v.roles,
    contactName: v.contactName ?? undefined,
    contactPhone: v.contactPhone ?? undefined,
    contactEmail: v.contactEmail ?? undefined,
    remark: v.remark ?? undefined,
  };
}

export function toValues(f: FormValues): CompanyValues {
  return {
    compName: f.compName,
    usccCode: f.usccCode,
    legalPerson: f.legalPerson,
    regCapital: f.regCapital,
    establishDate: f.establishDate || null,
    compType: f.compType,
    provinceCode: f.region[0] ?? null,
    cityCode: f.region[1] ?? null,
    areaCode: f.region[2] ?? null,
    address: f.address ?? null,
    industry: f.industry ?? null,
    roles: f.roles,
    contactName: f.contactName ?? null,
    contactPhone: f.contactPhone ?? null,
    contactEmail: f.contactEmail ?? null,
    remark: f.remark ?? null,
  };
}

export function toBody(d: Draft, submit: boolean): InfoChangeSave {
  const v = toValues(d.values);
  return {
    ...(d.bizCode ? { bizCode: d.bizCode, version: d.version } : {}),
    compCode: d.compCode,
    reason: d.reason,
    ...v,
    provinceCode: v.provinceCode ?? '',
    submit,
  };
}
