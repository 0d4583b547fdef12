import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomeImportPreview, IncomeRow } from '@portal/contract/accounts';
import type { Page } from '@portal/contract/api';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import ExcelJS from 'exceljs';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { CREDIT_PATHS } from '@portal/contract/credit';
import {
  IMPORT_KINDS,
  IMPORT_TEMPLATE_PATH,
  IMPORT_TEMPLATES,
  type ImportKind,
} from '@portal/contract/import-templates';
import { queryRows } from '../../platform/db/client';
import { uploadXlsx } from '../../testing/xlsx-upload';
import { addChecker } from '../credit/testkit';
import { addOwnAccount } from '../contract/testkit';
import { incomeApi } from '../paid/testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let accountNo: string;
let bankBizCode: string;

const HEADER = [
  '收款账号',
  '银行流水号',
  '付款人名称',
  '付款人账号',
  '付款人开户行',
  '金额',
  '交易日期',
  '备注',
];

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  bankBizCode = await addOwnAccount(maker);
  const a = await maker.ok<{ accountNo: string }>('/api/ft/api/bank/view', undefined, {
    query: { bizCode: bankBizCode },
  });
  accountNo = a.accountNo;
});
afterAll(() => t.close());

describe('bank statement import (resovleIncomeExcel, incomingImportSave)', () => {
  it('previews rows with per-row errors and duplicates, saves the valid ones in one go, refuses them twice', async () => {
    await maker.ok(incomeApi.saveBaseInfo, {
      bankBizCode,
      payerName: '老客户',
      amount: '10.00',
      valueDate: '2026-01-10',
      serialNo: 'S-OLD',
    });
    const res = await uploadXlsx(maker, incomeApi.resolveIncomeExcel, [
      HEADER,
      [accountNo, 'S-001', '核心买方有限公司', '6222', '工商银行', '12,345.67', '2026-01-14', '货款'],
      [accountNo, 'S-002', '另一买方', '', '', 500, new Date(Date.UTC(2026, 0, 13)), ''],
      [accountNo, 'S-001', '核心买方有限公司', '', '', '1.00', '2026-01-14', '重复'],
      [accountNo, 'S-OLD', '老客户', '', '', '10.00', '2026-01-10', ''],
      ['9999', 'S-003', '某公司', '', '', '-5', '2026-02-30', ''],
      [accountNo, 'S-004', '', '', '', '8.00', '2026-01-16', ''],
    ]);
    expect(res.status).toBe(200);
    const p = res.data as IncomeImportPreview;
    expect(p.rows.map((r) => [r.row, r.errors, r.duplicate])).toEqual([
      [2, [], false],
      [3, [], false],
      [4, ['银行流水号与第2行重复'], true],
      [5, [expect.stringMatching(/^银行流水号已登记（来款 \d{12}）$/)], true],
      [
        6,
        ['收款账号 9999 不是本公司的账户', '来款金额必须大于0', '来款日期必须是有效日期（YYYY-MM-DD）'],
        false,
      ],
      [7, ['付款人名称不能为空', '来款日期不能晚于营业日 2026-01-15'], false],
    ]);
    expect(p.valid.map((v) => [v.serialNo, v.amount, v.valueDate])).toEqual([
      ['S-001', '12345.67', '2026-01-14'],
      ['S-002', '500', '2026-01-13'],
    ]);
    expect(p.total).toBe('12845.67');

    const saved = await maker.ok<{ codes: string[] }>(incomeApi.importSave, { rows: p.valid, submit: true });
    expect(saved.codes).toHaveLength(2);
    const list = await maker.ok<Page<IncomeRow>>(incomeApi.list, { serialNo: 'S-00', state: 'pending' });
    expect(list.list.map((r) => [r.serialNo, r.source, r.balance]).sort()).toEqual([
      ['S-001', 'import', '12345.67'],
      ['S-002', 'import', '500.00'],
    ]);
    // Saved through the document pipeline: each row audited as created, then submitted.
    const audits = await queryRows<{ code: string; action: string; source: string | null }>(
      t.database.db,
      sql`select entity_code as code, action, detail->>'source' as source from audit_log
           where entity = 'income' and entity_code in (${sql.join(saved.codes, sql`, `)}) order by id`,
    );
    expect(audits.map((a) => [a.code, a.action, a.source])).toEqual(
      saved.codes.flatMap((c) => [
        [c, 'create', 'import'],
        [c, 'submit', null],
      ]),
    );
    // All or nothing: one known serial number refuses the whole batch.
    const again = await maker.call(incomeApi.importSave, {
      rows: [{ ...p.valid[0]!, serialNo: 'S-NEW' }, p.valid[1]],
    });
    expect(again.status).toBe(409);
    expect(again.msg).toMatch(/^第2条：银行流水号 S-002 在该收款账户已登记/);
    expect((await maker.ok<Page<IncomeRow>>(incomeApi.list, { serialNo: 'S-NEW' })).total).toBe(0);
    for (const code of saved.codes) await checker.ok(incomeApi.audit, {}, { query: { fiidBizCode: code } });
    expect((await maker.ok<Page<IncomeRow>>(incomeApi.initList, {})).total).toBe(2);
  });

  it('keeps a money cell as written: 100.123 is an error row, not 100.12', async () => {
    const res = await uploadXlsx(maker, incomeApi.resolveIncomeExcel, [
      HEADER,
      [accountNo, 'S-R1', '买方', '', '', 100.123, '2026-01-14', ''],
      [accountNo, 'S-R2', '买方', '', '', 100.1, '2026-01-14', ''],
      [accountNo, 'S-R3', '买方', '', '', 0.1 + 0.2, '2026-01-14', ''],
    ]);
    const p = res.data as IncomeImportPreview;
    expect(p.rows.map((r) => [r.row, r.item.amount, r.errors])).toEqual([
      [2, '100.123', ['来款金额必须是最多两位小数的金额']],
      [3, '100.1', []],
      [4, '0.3', []],
    ]);
    expect(p.valid.map((v) => v.amount)).toEqual(['100.1', '0.3']);
    expect(p.total).toBe('100.40');
  });

  it('下载模板: every xlsx import offers its header row, and reads it back column for column', async () => {
    const importOf: Record<ImportKind, string[]> = {
      income: [incomeApi.resolveIncomeExcel],
      receivables: [`/api${CONTRACT_PATHS.importReceivables}`, `/api${CREDIT_PATHS.importReceivables}`],
      plan: [`/api${CONTRACT_PATHS.resolvePlanExcel}`],
    };
    for (const kind of IMPORT_KINDS) {
      const res = await maker.call(`/api${IMPORT_TEMPLATE_PATH}`, { kind });
      expect(res.httpStatus).toBe(200);
      expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(
        IMPORT_TEMPLATES[kind].fileName,
      );
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
      const header = (wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
      expect(header).toEqual([...IMPORT_TEMPLATES[kind].headers]);
      // The template alone has every column the import needs: what is missing is a data row.
      for (const path of importOf[kind]) {
        const back = await uploadXlsx(maker, path, [header as string[]]);
        expect([kind, back.msg]).toEqual([kind, '表格中没有数据行']);
      }
    }
    expect((await maker.call(`/api${IMPORT_TEMPLATE_PATH}`, { kind: 'x' })).msg).toBe('模板类型取值不正确');
  });

  it('names a missing column; without the import button the server refuses', async () => {
    const missing = await uploadXlsx(maker, incomeApi.resolveIncomeExcel, [
      ['收款账号', '金额'],
      [accountNo, '1'],
    ]);
    expect(missing.msg).toBe('表头缺少列：银行流水号');
    await createUserWithCodes(t.database.db, 'viewer', 'Viewer@12345', ['ft-income', 'ft-income:add']);
    const viewer = await t.login('viewer', 'Viewer@12345');
    const refused = await uploadXlsx(viewer, incomeApi.resolveIncomeExcel, [HEADER]);
    expect(refused.status).toBe(401);
    expect((await viewer.call(incomeApi.importSave, { rows: [] })).status).toBe(401);
  });
});
