import { Tag } from 'antd';
import { DOC_STATE_LABELS, type DocState } from '@portal/contract/workflow';

/** Shared with the audit view's header (the process status uses the same colours). */
export const DOC_STATE_COLORS: Record<DocState, string> = {
  draft: 'default',
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
};

/**
 * 草稿 / 审核中 / 已审核 / 已驳回 as a coloured tag. A module of its own so that the lists showing
 * it do not load the audit view with it (bench/README.md).
 */
export function DocStateTag({ state }: { state: DocState | null | undefined }) {
  if (!state) return null;
  return (
    <Tag color={DOC_STATE_COLORS[state]} data-testid="doc-state">
      {DOC_STATE_LABELS[state]}
    </Tag>
  );
}
