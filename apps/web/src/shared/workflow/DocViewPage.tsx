import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DocState } from '@portal/contract/workflow';
import { docFrameProps, useDocCode, type DocKind } from './doc-kind';
import { DocViewFrame } from './DocViewFrame';
import { docQueries } from './api';

/**
 * The view page of a workflow document: reads the document the URL names through its view call and
 * shows it in the view frame (title and state, 返回, withdraw, the audit view). The feature gives
 * only the document's body.
 */
export function DocViewPage<V extends { state: DocState }>(props: {
  kind: DocKind;
  testId: string;
  title: string;
  load: (code: string) => Promise<V>;
  /** Buttons beside 返回 (打印 …). */
  actions?: (code: string) => ReactNode;
  /** Tags beside the state (已冲红 …). */
  tags?: (v: V) => ReactNode;
  children: (v: V, code: string) => ReactNode;
}) {
  const { kind, load } = props;
  const code = useDocCode(kind);
  const q = useQuery(docQueries.view(kind, code, load));
  const v = q.data;
  return (
    <DocViewFrame
      testId={props.testId}
      title={props.title}
      state={v?.state}
      tags={v && props.tags ? props.tags(v) : null}
      actions={props.actions?.(code)}
      {...docFrameProps(kind, code)}
    >
      {v ? props.children(v, code) : null}
    </DocViewFrame>
  );
}
