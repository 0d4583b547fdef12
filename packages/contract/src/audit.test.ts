import { describe, expect, it } from 'vitest';
import { auditChanges, menuCodeTitle, SYSTEM_ACTOR_NAME } from './audit';
import { flattenCatalogue } from './menus';

describe('操作日志 in words', () => {
  it('shows a state change, a data scope and a relation type in words, before and after', () => {
    expect(auditChanges({ before: 'enabled', after: 'disabled' })).toEqual({
      hasBefore: true,
      changes: [{ field: 'state', label: '状态', before: '启用', after: '停用' }],
    });
    const role = auditChanges({ before: { dataScope: 'self' }, after: { dataScope: 'all' } });
    expect(role.changes).toEqual([
      { field: 'dataScope', label: '数据范围', before: '仅本人数据', after: '全部数据' },
    ]);
    const rel = auditChanges({ relType: 'supplier', coreCompCode: '000000000001', startDate: '2026-01-01' });
    expect(rel.changes.map((c) => [c.label, c.after])).toEqual([
      ['关系类型', '核心企业—供应商'],
      ['核心企业', '000000000001'],
      ['开始日期', '2026-01-01'],
    ]);
  });

  it('names granted and withdrawn menus and buttons by their titles, never by code', () => {
    const menu = flattenCatalogue().find((e) => e.code.includes('income'))!;
    const c = auditChanges({ added: [`${menu.code}:add`], removed: [menu.code] }).changes;
    expect(c.map((x) => x.label)).toEqual(['新增权限', '移除权限']);
    expect(c[0]!.after).toBe(`${menu.title}·新增`);
    expect(c[1]!.after).toBe(menu.title);
    expect(menuCodeTitle(`${menu.code}:add`)).not.toContain(':');
  });

  it('words a key by what it means in its row: a 管理员变更’s from/to are no business dates', () => {
    const manager = auditChanges({ from: '000000000001', to: '000000000002' }, 'state', {
      action: 'managerChange',
      entity: 'company',
    });
    expect(manager.changes.map((c) => c.label)).toEqual(['原管理员（用户编号）', '新管理员（用户编号）']);
    const day = auditChanges({ from: '2026-01-01', to: '2026-01-02' }, 'state', {
      action: 'setBusinessDate',
    });
    expect(day.changes.map((c) => c.label)).toEqual(['原营业日', '新营业日']);
    const bill = auditChanges({ before: { phone: null }, after: { phone: '021-1' } }, 'state', {
      action: 'update',
      entity: 'compInvoice',
    });
    expect(bill.changes).toEqual([{ field: 'phone', label: '注册电话', before: null, after: '021-1' }]);
  });

  it('reads a save that created its record (before null) as the values written', () => {
    expect(auditChanges({ roleCode: 'R1', before: null, after: { roleName: '出纳' } })).toEqual({
      hasBefore: false,
      changes: [
        { field: 'roleName', label: '角色名称', before: null, after: '出纳' },
        { field: 'roleCode', label: '角色编号', before: null, after: 'R1' },
      ],
    });
  });

  it('keeps the record a change names beside its fields, and the server is 系统', () => {
    const dept = auditChanges({ deptCode: 'D1', before: { deptName: '甲' }, after: { deptName: '乙' } });
    expect(dept.changes.map((x) => x.field)).toEqual(['deptName', 'deptCode']);
    expect(SYSTEM_ACTOR_NAME).toBe('系统');
  });
});

describe('one word for one thing', () => {
  it('names a prepayment 前期款 and the up-front fee 前置手续费 on every screen, export and print', async () => {
    const { UPFRONT_KINDS, UPFRONT_LABELS } = await import('./loan');
    const { DUE_KIND_LABELS } = await import('./contract');
    const { AUDIT_ENTITY_LABELS } = await import('./audit');
    expect(UPFRONT_KINDS.map((k) => UPFRONT_LABELS[k])).toEqual(UPFRONT_KINDS.map((k) => DUE_KIND_LABELS[k]));
    expect(UPFRONT_LABELS.upfrontFee).toBe('前置手续费');
    expect(AUDIT_ENTITY_LABELS.prepayment).toBe('前期款');
  });
});
