import { usccCheckChar } from '@portal/contract/uscc';
import type { CompRole, CompType, Industry } from '@portal/contract/company';
import type { SeedContext } from '../../platform/module';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { nextCode } from '../../platform/db/codes';
import { runCommand } from '../../platform/db/command';
import { companies } from './schema';

/** GB 11714 organisation code: 8 characters and their mod-11 check character. */
function orgCode(body8: string): string {
  const weights = [3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body8].reduce((s, ch, i) => s + parseInt(ch, 36) * (weights[i] ?? 0), 0);
  const c = 11 - (sum % 11);
  return body8 + (c === 10 ? 'X' : c === 11 ? '0' : String(c));
}

/** A well-formed USCC for a demo company: 91 (enterprise), region, organisation code, check. */
export function demoUscc(region: string, body8: string): string {
  const first17 = `91${region}${orgCode(body8)}`;
  return first17 + usccCheckChar(first17);
}

interface Demo {
  name: string;
  region: [string, string, string];
  body: string;
  type: CompType;
  roles: CompRole[];
  legal: string;
  capital: string;
  since: string;
  industry: Industry;
  address: string;
  contact: string;
  phone: string;
  parent?: number;
  /** Not yet admitted: the admission demo raises its 客户准入单 (docs/admission.md). */
  pending?: true;
}

export const DEMO_COMPANIES: Demo[] = [
  {
    name: '华东建工集团有限公司',
    region: ['310000', '310100', '310115'],
    body: '13220417',
    type: 'state',
    roles: ['core', 'buyer'],
    legal: '周建国',
    capital: '5000000000.00',
    since: '1998-06-18',
    industry: 'E',
    address: '上海市浦东新区世纪大道1200号',
    contact: '陈珊',
    phone: '021-58886666',
  },
  {
    name: '江苏恒润钢材贸易有限公司',
    region: ['320000', '320100', '320105'],
    body: '57811236',
    type: 'private',
    roles: ['supplier'],
    legal: '李志强',
    capital: '30000000.00',
    since: '2011-03-09',
    industry: 'F',
    address: '南京市建邺区江东中路88号',
    contact: '王磊',
    phone: '13951234567',
    parent: 0,
  },
  {
    name: '深圳前海启航供应链管理有限公司',
    region: ['440000', '440300', '440305'],
    body: '35991288',
    type: 'private',
    roles: ['supplier', 'distributor'],
    legal: '张晓明',
    capital: '50000000.00',
    since: '2015-11-20',
    industry: 'G',
    address: '深圳市南山区前海深港合作区前湾一路1号',
    contact: '刘婷',
    phone: '0755-86001234',
  },
  {
    name: '浙江中恒融资担保股份有限公司',
    region: ['330000', '330100', '330106'],
    body: '07219566',
    type: 'jointVenture',
    roles: ['guarantor'],
    legal: '吴海峰',
    capital: '200000000.00',
    since: '2009-08-01',
    industry: 'J',
    address: '杭州市西湖区文三路90号',
    contact: '徐明',
    phone: '0571-88886655',
  },
  {
    name: '北京京能新材料科技有限公司',
    region: ['110000', '110100', '110108'],
    body: '69233011',
    type: 'state',
    roles: ['supplier', 'buyer'],
    legal: '赵立新',
    capital: '120000000.00',
    since: '2013-05-27',
    industry: 'C',
    address: '北京市海淀区中关村南大街5号',
    contact: '孙悦',
    phone: '010-62345678',
  },
  {
    name: '四川蜀道物流有限公司',
    region: ['510000', '510100', '510107'],
    body: '79217430',
    type: 'private',
    roles: ['distributor'],
    legal: '黄伟',
    capital: '8000000.00',
    since: '2016-09-12',
    industry: 'G',
    address: '成都市武侯区人民南路四段18号',
    contact: '杨帆',
    phone: '028-85551234',
    parent: 0,
  },
  // 客户准入 (docs/admission.md): entered by 业务部; the first is admitted by its approved 准入单,
  // the second waits for 风控 (modules/admission/demo.ts).
  {
    name: '苏州新锐智能装备有限公司',
    region: ['320000', '320500', '320506'],
    body: '7A3K2Q58',
    type: 'private',
    roles: ['supplier'],
    legal: '陈志远',
    capital: '20000000.00',
    since: '2017-04-18',
    industry: 'C',
    address: '苏州市吴中区东吴北路66号',
    contact: '周琳',
    phone: '0512-65201234',
    pending: true,
  },
  {
    name: '合肥未来新能源科技有限公司',
    region: ['340000', '340100', '340104'],
    body: '5L8M0C21',
    type: 'private',
    roles: ['supplier'],
    legal: '刘芳',
    capital: '15000000.00',
    since: '2019-10-08',
    industry: 'D',
    address: '合肥市蜀山区望江西路520号',
    contact: '何静',
    phone: '0551-63881234',
    pending: true,
  },
];

/** A handful of realistic customers so a fresh `npm start` shows something. */
export async function seedDemoCompanies({ db }: SeedContext): Promise<void> {
  await db.transaction(async (tx) => {
    const codes: string[] = [];
    for (const d of DEMO_COMPANIES)
      await runCommand(tx, SYSTEM_ACTOR, { entity: 'company', action: 'demo' }, async (_tx, w) => {
        const compCode = await nextCode(tx, 'comp');
        codes.push(compCode);
        await tx.insert(companies).values({
          compCode,
          compName: d.name,
          usccCode: demoUscc(d.region[0] === '110000' ? '110108' : d.region[2], d.body),
          compType: d.type,
          roles: d.roles,
          legalPerson: d.legal,
          regCapital: d.capital,
          establishDate: d.since,
          provinceCode: d.region[0],
          cityCode: d.region[1],
          areaCode: d.region[2],
          address: d.address,
          industry: d.industry,
          contactName: d.contact,
          contactPhone: d.phone,
          parentCompCode: d.parent === undefined ? null : (codes[d.parent] ?? null),
          // Customers the office already works with are admitted (as migration 0058 admits them).
          admission: d.pending ? 'pending' : 'admitted',
        });
        await w.audit({ code: compCode });
      });
  });
}
