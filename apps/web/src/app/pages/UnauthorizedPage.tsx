import { Button, Result, Space } from 'antd';
import { useNavigate } from 'react-router';

export default function UnauthorizedPage() {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="401"
      subTitle="抱歉，您没有访问该页面的权限。"
      extra={
        <Space>
          <Button onClick={() => navigate(-1)}>返回</Button>
          <Button type="primary" onClick={() => navigate('/')}>
            返回首页
          </Button>
        </Space>
      }
    />
  );
}
