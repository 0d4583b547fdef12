import { z } from 'zod';

export const GEO_PATHS = {
  provinces: '/admin/portal/data/province/list',
  areas: '/admin/portal/data/area/list',
  linkage: '/admin/portal/data/linkage/list',
  linkageChild: '/admin/portal/data/linkage/getChild',
} as const;

/** GB/T 2260 six-digit division code: province 110000, city 110100, district 110101. */
export const divisionCode = (label: string) =>
  z.string({ error: `${label}不能为空` }).regex(/^\d{6}$/, `${label}必须是6位行政区划代码`);

export const pidQuery = z.object({ pid: divisionCode('上级区划') });

export interface Division {
  code: string;
  name: string;
}

export interface LinkageNode {
  value: string;
  label: string;
  isLeaf?: boolean;
  children?: LinkageNode[];
}
