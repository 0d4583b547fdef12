import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Card, Result } from 'antd';

/**
 * An editor's record before its form: while the record the URL names (`code`) loads, a loading
 * card; when it cannot be read, 「<what>加载失败」 with the way back to the list; then the editor,
 * given the record (undefined when adding: no `code`).
 */
export function EditorRecord<T>(props: {
  code: string | undefined;
  query: UseQueryResult<T>;
  /** What is edited, as the failure names it (计息规则). */
  what: string;
  backTo: string;
  loadingTestId?: string;
  children: (record: T | undefined) => ReactNode;
}) {
  const navigate = useNavigate();
  if (props.code && props.query.isPending) return <Card loading data-testid={props.loadingTestId} />;
  if (props.code && props.query.data === undefined) {
    return (
      <Result
        status="warning"
        title={`${props.what}加载失败`}
        extra={<Button onClick={() => void navigate(props.backTo)}>返回列表</Button>}
      />
    );
  }
  return props.children(props.query.data);
}
