import type { Division, LinkageNode } from '@portal/contract/geo';
import divisions from './divisions.json';

/** divisions.json, as scripts/generate-divisions.mjs writes it: [code, name, parent code]. */
interface DivisionsFile {
  source: string;
  provinces: [code: string, name: string][];
  cities: [code: string, name: string, provinceCode: string][];
  areas: [code: string, name: string, cityCode: string][];
}

/**
 * GB/T 2260 divisions (provinces, prefecture cities, districts) generated into divisions.json,
 * normalised to six-digit codes, indexed once and kept in memory: they change once a year.
 */
export interface GeoIndex {
  provinces: Division[];
  children: Map<string, Division[]>;
  names: Map<string, string>;
  tree: LinkageNode[];
}

let index: GeoIndex | undefined;

export function geo(): GeoIndex {
  if (index) return index;
  const file = divisions as DivisionsFile;
  const provinces = file.provinces.map(([code, name]) => ({ code: `${code}0000`, name }));
  const children = new Map<string, Division[]>();
  const names = new Map<string, string>();
  const push = (parent: string, d: Division) => {
    // Cities without districts (东莞, 中山, 儋州…) list themselves as their own area: no cycles.
    if (d.code === parent) return;
    const list = children.get(parent) ?? [];
    list.push(d);
    children.set(parent, list);
    names.set(d.code, d.name);
  };
  provinces.forEach((p) => names.set(p.code, p.name));
  for (const [code, name, province] of file.cities) push(`${province}0000`, { code: `${code}00`, name });
  for (const [code, name, city] of file.areas) push(`${city}00`, { code, name });
  const build = (d: Division): LinkageNode => {
    const kids = children.get(d.code);
    return kids
      ? { value: d.code, label: d.name, children: kids.map(build) }
      : { value: d.code, label: d.name };
  };
  index = { provinces, children, names, tree: provinces.map(build) };
  return index;
}

export function divisionName(code: string | null | undefined): string {
  return code ? (geo().names.get(code) ?? '') : '';
}
