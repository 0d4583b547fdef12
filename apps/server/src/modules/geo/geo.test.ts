import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEO_PATHS, type Division, type LinkageNode } from '@portal/contract/geo';
import { createTestPortal, type TestClient, type TestPortal, servedPaths } from '../../testing/harness';
import { divisionName } from './data';

const geoApi = servedPaths(GEO_PATHS);

let t: TestPortal;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
});
afterAll(() => t.close());

describe('geography (GB/T 2260)', () => {
  it('lists the 31 mainland provinces with six-digit codes', async () => {
    const provinces = await admin.ok<Division[]>(geoApi.provinces);
    expect(provinces.length).toBeGreaterThanOrEqual(31);
    expect(provinces).toContainEqual({ code: '110000', name: '北京市' });
    expect(provinces).toContainEqual({ code: '440000', name: '广东省' });
    expect(provinces.every((p) => /^\d{2}0000$/.test(p.code))).toBe(true);
  });

  it('answers the children of a province and of a city, also as GET', async () => {
    const cities = await admin.ok<Division[]>(geoApi.areas, undefined, { query: { pid: '440000' } });
    expect(cities).toContainEqual({ code: '440300', name: '深圳市' });
    const districts = await admin.ok<Division[]>(geoApi.areas, undefined, {
      query: { pid: '440300' },
      method: 'GET',
    });
    expect(districts).toContainEqual({ code: '440305', name: '南山区' });
    expect(await admin.ok(geoApi.areas, undefined, { query: { pid: '990000' } })).toEqual([]);
    const bad = await admin.call(geoApi.areas, undefined, { query: { pid: '44' } });
    expect([bad.httpStatus, bad.msg]).toEqual([400, '上级区划必须是6位行政区划代码']);
  });

  it('linkage: the whole tree for a cascader, and one level with leaf flags', async () => {
    const tree = await admin.ok<LinkageNode[]>(geoApi.linkage);
    const sh = tree.find((n) => n.value === '310000')!;
    expect(sh.label).toBe('上海市');
    const pudong = sh.children?.flatMap((c) => c.children ?? []).find((d) => d.value === '310115');
    expect(pudong).toEqual({ value: '310115', label: '浦东新区' });
    const level = await admin.ok<LinkageNode[]>(geoApi.linkageChild, undefined, { query: { pid: '310100' } });
    expect(level).toContainEqual({ value: '310115', label: '浦东新区', isLeaf: true });
    const cities = await admin.ok<LinkageNode[]>(geoApi.linkageChild, undefined, {
      query: { pid: '320000' },
    });
    expect(cities).toContainEqual({ value: '320100', label: '南京市', isLeaf: false });
    expect(divisionName('330106')).toBe('西湖区');
  });

  it('needs a session', async () => {
    expect((await t.client().call(geoApi.provinces)).httpStatus).toBe(403);
  });
});
