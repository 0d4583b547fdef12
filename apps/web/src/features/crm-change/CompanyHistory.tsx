import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Card, Select, Table } from 'antd';
import type { Page } from '@portal/contract/api';
import {
  HISTORY_CHANGE_TYPE_LABELS,
  type CompanyHistoryItem,
  type CompUserOption,
} from '@portal/contract/crm-change';
import { formatDateTime } from '@portal/contract/format';
import { crmChangeQueries, type ChangeRoot } from './api';

const PAGE_SIZE = 10;

/**
 * 变更历史: the values approved changes of the customer replaced, newest first, one page at a time.
 * `root` is the view's own key prefix, so the view's refresh after 审核 refetches it too.
 */
export function CompanyHistorySection({ compCode, root }: { compCode: string; root: ChangeRoot }) {
  const [pageNum, setPageNum] = useState(1);
  useEffect(() => setPageNum(1), [compCode]);
  const q = useQuery(crmChangeQueries.history(root, compCode, pageNum, PAGE_SIZE));
  const data: Page<CompanyHistoryItem> | undefined = q.data;
  return (
    <Card size="small" title="变更历史" style={{ marginTop: 16 }} data-testid="company-history">
      <Table<CompanyHistoryItem>
        size="small"
        rowKey="id"
        loading={q.isFetching}
        dataSource={data?.list ?? []}
        locale={{ emptyText: '暂无变更历史' }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (n) => `共 ${n} 条`,
          onChange: setPageNum,
        }}
        columns={[
          { title: '变更时间', key: 'changedAt', render: (_, r) => formatDateTime(r.changedAt), width: 170 },
          {
            title: '变更类型',
            key: 'changeType',
            render: (_, r) => HISTORY_CHANGE_TYPE_LABELS[r.changeType],
            width: 110,
          },
          { title: '变更单编号', dataIndex: 'bizCode', key: 'bizCode', width: 130 },
          { title: '变更项', dataIndex: 'fieldLabel', key: 'fieldLabel', width: 130 },
          { title: '变更前', key: 'oldValue', render: (_, r) => r.oldValue ?? '（空）' },
          { title: '变更后', key: 'newValue', render: (_, r) => r.newValue ?? '（空）' },
          { title: '审核人', key: 'changedByName', render: (_, r) => r.changedByName ?? '—', width: 100 },
        ]}
      />
    </Card>
  );
}

const PICKER_PAGE = 20;

/**
 * 新管理员 picker: searches the customer's candidates on the server as the user types (name or
 * mobile), one page at a time. `selected` keeps the current choice labelled when it is not among
 * the answered page (an edited draft).
 */
export function CandidateSelect({
  compCode,
  selected,
  id,
  value,
  onChange,
}: {
  compCode: string | undefined;
  selected?: CompUserOption | undefined;
  /** From Form.Item, so the label points at the input. */
  id?: string;
  value?: string;
  onChange?: (v: string | undefined) => void;
}) {
  const [input, setInput] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(input.trim()), 300);
    return () => clearTimeout(t);
  }, [input]);
  useEffect(() => {
    setInput('');
    setKeyword('');
  }, [compCode]);
  const q = useQuery(crmChangeQueries.candidates(compCode, keyword, PICKER_PAGE));
  const list = q.data?.list ?? [];
  const options = list.map((u) => ({ value: u.userCode, label: `${u.userName}（${u.mobile}）` }));
  if (selected && selected.userCode === value && !list.some((u) => u.userCode === value))
    options.unshift({ value: selected.userCode, label: `${selected.userName}（${selected.mobile}）` });
  const more = (q.data?.total ?? 0) - list.length;
  return (
    <Select
      id={id}
      showSearch
      allowClear
      value={value}
      onChange={(v: string | undefined) => onChange?.(v)}
      filterOption={false}
      searchValue={input}
      onSearch={setInput}
      loading={q.isFetching}
      placeholder={compCode ? '输入姓名或手机号搜索该企业的企业用户' : '请先选择企业'}
      notFoundContent={compCode ? (q.isFetching ? '查询中…' : '没有符合条件的企业用户') : null}
      options={options}
      data-testid="candidate-select"
      popupRender={(menu) => (
        <>
          {menu}
          {more > 0 ? (
            <div style={{ padding: '4px 12px', color: '#999' }}>
              还有 {more} 人未显示，请输入姓名或手机号缩小范围
            </div>
          ) : null}
        </>
      )}
    />
  );
}
