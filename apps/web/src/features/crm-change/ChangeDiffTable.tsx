import { Space, Table, Tag } from 'antd';
import type { InfoChangeView } from '@portal/contract/crm-change';
import { diffRows, SECTION_TITLES, type DiffRow } from './diff';

const BEFORE_STYLE = { background: '#fff1f0', textDecoration: 'line-through', color: '#8c8c8c' } as const;
const AFTER_STYLE = { background: '#f6ffed', fontWeight: 600 } as const;

/** Before and after side by side, changed rows highlighted (from the snapshot, so also after approval). */
export function ChangeDiffTable({ view }: { view: InfoChangeView }) {
  const rows = diffRows(view);
  return (
    <Table<DiffRow>
      data-testid="change-diff"
      size="small"
      rowKey="key"
      pagination={false}
      dataSource={rows}
      onRow={(r) => ({ 'data-changed': r.changed ? 'true' : 'false', 'data-field': r.key }) as object}
      columns={[
        {
          title: '分类',
          key: 'section',
          width: 100,
          render: (_: unknown, r: DiffRow) => SECTION_TITLES[r.section],
        },
        {
          title: '字段',
          key: 'label',
          width: 160,
          render: (_: unknown, r: DiffRow) => (
            <Space size={4}>
              {r.label}
              {r.changed ? <Tag color="red">已变更</Tag> : null}
            </Space>
          ),
        },
        {
          title: '变更前',
          key: 'before',
          render: (_: unknown, r: DiffRow) => r.before || '—',
          onCell: (r: DiffRow) => ({ style: r.changed ? BEFORE_STYLE : undefined }),
        },
        {
          title: '变更后',
          key: 'after',
          render: (_: unknown, r: DiffRow) => r.after || '—',
          onCell: (r: DiffRow) => ({ style: r.changed ? AFTER_STYLE : undefined }),
        },
      ]}
    />
  );
}
