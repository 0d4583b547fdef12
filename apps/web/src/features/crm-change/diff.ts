import {
  COMP_ROLE_LABELS,
  COMP_TYPE_LABELS,
  INDUSTRY_LABELS,
  type CompRole,
  type CompType,
  type Industry,
} from '@portal/contract/company';
import {
  AT_INFO_FIELDS,
  CHANGE_FIELD_LABELS,
  type ChangeField,
  type CompanyValues,
} from '@portal/contract/crm-change';
import { formatMoney } from '@portal/contract/format';

export type Section = 'at-info' | 'other-info';
export const SECTION_TITLES: Record<Section, string> = { 'at-info': '认证信息', 'other-info': '其他信息' };

export interface DiffRow {
  key: string;
  section: Section;
  label: string;
  before: string;
  after: string;
  changed: boolean;
}

const REGION: readonly ChangeField[] = ['provinceCode', 'cityCode', 'areaCode'];

/** A field's value as the screens show it (labels for codes, money with separators). */
export function displayValue(field: ChangeField, v: CompanyValues): string {
  switch (field) {
    case 'compType':
      return COMP_TYPE_LABELS[v.compType as CompType] ?? v.compType;
    case 'industry':
      return v.industry ? (INDUSTRY_LABELS[v.industry as Industry] ?? v.industry) : '';
    case 'roles':
      return v.roles.map((r) => COMP_ROLE_LABELS[r as CompRole] ?? r).join('、');
    case 'regCapital':
      return formatMoney(v.regCapital);
    default:
      return v[field] ?? '';
  }
}

export const sectionOf = (field: ChangeField): Section =>
  (AT_INFO_FIELDS as readonly string[]).includes(field) ? 'at-info' : 'other-info';

/**
 * The before / after rows of a change, in the order of the two tabs; the three region codes show
 * as one 所在地区 row with the division names.
 */
export function diffRows(view: {
  before: CompanyValues;
  after: CompanyValues;
  beforeRegion: string;
  afterRegion: string;
  changedFields: readonly ChangeField[];
}): DiffRow[] {
  const rows: DiffRow[] = [];
  const fields = Object.keys(CHANGE_FIELD_LABELS) as ChangeField[];
  for (const f of fields) {
    if (f === 'cityCode' || f === 'areaCode') continue;
    if (f === 'provinceCode') {
      rows.push({
        key: 'region',
        section: 'at-info',
        label: '所在地区',
        before: view.beforeRegion,
        after: view.afterRegion,
        changed: REGION.some((r) => view.changedFields.includes(r)),
      });
      continue;
    }
    rows.push({
      key: f,
      section: sectionOf(f),
      label: CHANGE_FIELD_LABELS[f],
      before: displayValue(f, view.before),
      after: displayValue(f, view.after),
      changed: view.changedFields.includes(f),
    });
  }
  return rows.sort((a, b) => (a.section === b.section ? 0 : a.section === 'at-info' ? -1 : 1));
}
