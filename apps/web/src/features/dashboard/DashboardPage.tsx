import { Card, Col, Descriptions, Row, Typography } from 'antd';
import { useSessionStore } from '../../shared/session/session-store';
import { COMING_SOON } from '../../shared/ui/ComingSoon';

/** SPEC §2.2: the dashboard, titled 工作 (the pinned tab). Figures come with the dashboard issue. */
export default function DashboardPage() {
  const name = useSessionStore((s) => s.name);
  const userInfo = useSessionStore((s) => s.userInfo);
  const roles = useSessionStore((s) => s.roles);
  return (
    <div className="dashboard" data-testid="dashboard">
      <Card>
        <Typography.Title level={4}>工作</Typography.Title>
        <Typography.Paragraph>
          {name ? `${name}，您好！` : '您好！'}欢迎使用保理业务管理平台。
        </Typography.Paragraph>
      </Card>
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} lg={12}>
          <Card title="我的信息">
            <Descriptions column={1} size="small">
              <Descriptions.Item label="用户名">{userInfo?.userName ?? '-'}</Descriptions.Item>
              <Descriptions.Item label="姓名">{userInfo?.name || '-'}</Descriptions.Item>
              <Descriptions.Item label="菜单权限">{roles ? `${roles.length} 项` : '-'}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="待办与统计">
            <Typography.Text type="secondary">{COMING_SOON}</Typography.Text>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
