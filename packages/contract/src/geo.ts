/**
 * Geography paths; the field schemas (division codes) live in fields.ts, so the web's first chunk can take
 * these paths without the validator.
 */
export const GEO_PATHS = {
  provinces: '/admin/portal/data/province/list',
  areas: '/admin/portal/data/area/list',
  linkage: '/admin/portal/data/linkage/list',
  linkageChild: '/admin/portal/data/linkage/getChild',
} as const;

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
