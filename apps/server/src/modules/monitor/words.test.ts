import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { operView, type OperRow } from './service';

const row = (over: Partial<OperRow>): OperRow => ({
  id: 1,
  at: '2026-11-28T02:00:00.000Z',
  user_name: 'admin',
  real_name: null,
  org_name: null,
  entity: 'company',
  entity_code: '000000000001',
  action: 'demo',
  ip: null,
  request_id: null,
  result: 'success',
  ...over,
});

describe('the server’s own writes', () => {
  it('are recorded as 系统, which 待办, the bell and 操作日志 show, never "system"', () => {
    expect(SYSTEM_ACTOR.userName).toBe('系统');
    // A row recorded before the rename (migration 0048 renames the stored ones too).
    const old = operView(row({ user_name: 'system' }));
    expect([old.userName, old.entityLabel, old.actionLabel]).toEqual(['系统', '客户', '生成演示数据']);
  });

  it('names the workflow’s and the posting’s actions in words', () => {
    expect(operView(row({ entity: 'paid', action: 'post' })).actionLabel).toBe('记账');
    expect(operView(row({ entity: 'contract', action: 'approve' })).actionLabel).toBe('审批通过');
    expect(operView(row({ entity: 'prepayment', action: 'create' })).entityLabel).toBe('前期款');
  });
});
