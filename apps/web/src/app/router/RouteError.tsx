import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { Button, Result } from 'antd';
import { addErrorLog } from '../../shared/error-log/error-log-store';

/** A route that failed to load or render: its message, logged, and a reload. */
export default function RouteError() {
  const error = useRouteError();
  useEffect(() => addErrorLog(error, 'route'), [error]);
  const text = error instanceof Error ? error.message : 'Has Error';
  return (
    <Result
      status="error"
      title="页面加载失败"
      subTitle={text}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>
      }
    />
  );
}
