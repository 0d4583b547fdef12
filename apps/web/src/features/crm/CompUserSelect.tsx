import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import type { CompUserRow, UserState } from '@portal/contract/crm';
import { crmQueries } from './api';

const PAGE = 20;
export const userLabel = (u: Pick<CompUserRow, 'userName' | 'mobile'>) => `${u.userName} ${u.mobile}`;

/**
 * A multiple picker of one customer's enterprise users that searches as you type: digits match
 * the mobile, anything else the name, one server page (20) at a time. Already chosen users keep
 * their labels from `known` (the record being edited). `state` limits the offer (a role takes
 * enabled users only).
 */
export function CompUserSelect({
  compCode,
  value,
  onChange,
  known = [],
  optionProps,
  state,
  id,
  style,
  'aria-label': ariaLabel,
}: {
  compCode: string | undefined;
  value?: string[];
  onChange?: (v: string[]) => void;
  known?: readonly { value: string; label: string }[];
  optionProps?: (u: CompUserRow) => { disabled?: boolean; title?: string | undefined };
  state?: UserState;
  id?: string;
  style?: React.CSSProperties;
  'aria-label'?: string;
}) {
  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setTerm(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);
  const found = useQuery(crmQueries.userSearch(compCode, term, state, PAGE));
  // Labels of users seen so far, so a chosen user keeps its name when a later search omits it.
  const [seen, setSeen] = useState(new Map<string, string>());
  const list = found.data?.list;
  useEffect(() => {
    if (list?.length)
      setSeen((m) => {
        const next = new Map(m);
        for (const u of list) next.set(u.userCode, userLabel(u));
        return next;
      });
  }, [list]);
  const options = useMemo(() => {
    const shown = (list ?? []).map((u) => ({ value: u.userCode, label: userLabel(u), ...optionProps?.(u) }));
    const ids = new Set(shown.map((o) => o.value));
    const labels = new Map([...known.map((k) => [k.value, k.label] as const), ...seen]);
    const kept = (value ?? [])
      .filter((v) => !ids.has(v))
      .map((v) => ({ value: v, label: labels.get(v) ?? v }));
    return [...shown, ...kept];
  }, [list, known, seen, value, optionProps]);
  return (
    <Select
      id={id}
      aria-label={ariaLabel}
      mode="multiple"
      style={style}
      showSearch
      filterOption={false}
      searchValue={typed}
      onSearch={setTyped}
      onBlur={() => setTyped('')}
      loading={found.isFetching}
      value={value}
      onChange={(v: string[]) => {
        setTyped('');
        onChange?.(v);
      }}
      options={options}
      placeholder="输入姓名或手机号搜索"
    />
  );
}
