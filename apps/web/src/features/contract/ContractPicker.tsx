import { useEffect, useState, type CSSProperties } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { contractQueries } from './api';

/** How long typing pauses before the picker asks the server. */
const SEARCH_DELAY_MS = 300;

export interface ContractPickerProps {
  /** The chosen contract's 12-digit code. */
  value?: string | undefined;
  onChange?: (bizCode: string | undefined) => void;
  style?: CSSProperties;
}

/**
 * Picks a contract by part of its 合同号 or of the customer's name, searched on the server among
 * the user's contracts (at most 20 shown: typing narrows them), instead of a typed contract code.
 */
export function ContractPicker({ value, onChange, style }: ContractPickerProps) {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery(contractQueries.pick(keyword));
  return (
    <Select<string>
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      aria-label="选择合同"
      placeholder="输入合同号或客户名称搜索"
      value={value}
      onChange={(v) => onChange?.(v || undefined)}
      loading={found.isFetching}
      notFoundContent={found.isFetching ? '正在搜索……' : '没有匹配的合同'}
      options={(found.data ?? []).map((c) => ({ value: c.bizCode, label: `${c.contractNo}  ${c.custName}` }))}
      style={{ width: 320, ...style }}
    />
  );
}
