import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Card, Select } from 'antd';
import { permitQueries } from './api';

/** The value as it was `ms` milliseconds after its last change. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const PICKER_PAGE = 20;

/**
 * Picks an open ec customer admission (企业角色变更 新增, no record given): searches the paged
 * customer-admission list by enterprise name as the user types (the first 20 matches).
 */
export function OpenCustPicker({ onPick }: { onPick: (bizCode: string) => void }) {
  const [typed, setTyped] = useState('');
  const search = useSettled(typed.trim(), 300);
  const q = useQuery(permitQueries.openEcCust(search, PICKER_PAGE));
  const total = q.data?.total ?? 0;
  return (
    <Card size="small" title="选择已开通的企业客户准入">
      <Select
        style={{ width: 420 }}
        showSearch
        filterOption={false}
        onSearch={setTyped}
        placeholder="输入企业名称搜索"
        loading={q.isFetching}
        data-testid="permit-picker"
        options={(q.data?.list ?? []).map((r) => ({
          value: r.bizCode,
          label: `${r.compName}（${r.bizCode}）`,
        }))}
        notFoundContent={q.isFetching ? '加载中…' : '没有匹配的已开通企业客户'}
        onChange={(v: string) => onPick(v)}
      />
      {total > PICKER_PAGE ? (
        <div style={{ marginTop: 8, color: 'rgba(0,0,0,0.45)' }}>
          共{total}个匹配，仅显示前{PICKER_PAGE}个，请输入更完整的企业名称
        </div>
      ) : null}
    </Card>
  );
}
