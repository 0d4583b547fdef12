import type { ReactNode } from 'react';
import { Alert, Button, Card, Skeleton } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';

/** A dashboard card with its own loading and error state, so one failing widget leaves the rest. */
export function Widget<T>({
  title,
  query,
  children,
  testId,
  extra,
}: {
  title: string;
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
  testId: string;
  extra?: ReactNode;
}) {
  return (
    <Card title={title} size="small" data-testid={testId} extra={extra} style={{ height: '100%' }}>
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : query.isError ? (
        <Alert
          type="warning"
          showIcon
          message="加载失败"
          description={query.error instanceof Error ? query.error.message : String(query.error)}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              重试
            </Button>
          }
        />
      ) : (
        children(query.data)
      )}
    </Card>
  );
}
