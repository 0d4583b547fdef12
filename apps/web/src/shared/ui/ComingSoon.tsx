import { Alert, Card, Form, Input, Tabs, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { findRoute } from '../routing/route-table';
import { ListPage, type ListFetcher } from '../list/ListPage';
import type { ScreenProps } from './screen';

export const COMING_SOON = '功能建设中';

const emptyList: ListFetcher<{ id: string }> = () => Promise.resolve({ list: [], total: 0 });

/**
 * Placeholder of a business screen until its feature lands: the route's title, 功能建设中, the
 * detail tabs of a tab route (management layout) and the list skeleton the screen will fill.
 */
export default function ComingSoon({ meta }: ScreenProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const detail = meta.tabOf ? findRoute(meta.tabOf) : undefined;
  const title = meta.tabTitle ? `${meta.title} - ${meta.tabTitle}` : meta.title;
  return (
    <div className="coming-soon" data-testid="coming-soon">
      {detail?.tabs && meta.layout === 'management' ? (
        <Tabs
          activeKey={meta.path.slice(detail.path.length + 1)}
          items={detail.tabs.map((t) => ({ key: t.path, label: t.title }))}
          onChange={(key) => navigate(`${detail.path}/${key}${location.search}`)}
        />
      ) : null}
      <Card>
        <Typography.Title level={4} className="coming-soon__title">
          {title}
        </Typography.Title>
        <Alert
          type="info"
          showIcon
          title={COMING_SOON}
          description={`「${title}」${COMING_SOON}，敬请期待。`}
        />
      </Card>
      <ListPage<{ id: string }>
        source={emptyList}
        rowKey="id"
        columns={[
          { title: '编号', dataIndex: 'id', key: 'id' },
          { title: '名称', dataIndex: 'name', key: 'name' },
        ]}
        filters={
          <Form.Item label="关键字" name="keyword">
            <Input placeholder="请输入关键字" allowClear />
          </Form.Item>
        }
      />
    </div>
  );
}
