import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import type { DocState } from '@portal/contract/workflow';
import { refreshAfterAction, workflowApi, type DocRef } from './api';
import { useProcess } from './AuditView';

/**
 * 撤回 for the maker of a submitted document while no approver has acted (the server decides:
 * ProcessView.canWithdraw). Afterwards, done or refused, the document's queries under `refresh` and
 * its workflow are fetched again.
 *
 * `state` is the document's state as its view shows it in the title. The two come from two reads
 * fetched again apart, so the button is offered only while both say 审核中: otherwise, for the
 * moment one answer is in and the other not, the title reads 草稿 beside a 撤回 that the server
 * would refuse.
 */
export function WithdrawButton({
  refresh,
  state,
  ...ref
}: DocRef & { refresh: readonly unknown[]; state: DocState | undefined }) {
  const qc = useQueryClient();
  const view = useProcess(ref);
  if (state !== 'pending' || !view.data?.canWithdraw) return null;
  const withdraw = async () => {
    // Done or refused (an approver acted meanwhile: 409), the view shows the document as it is now
    // (docs/architecture.md "A view is never stale"); a refusal was shown by the request layer.
    await workflowApi.withdraw(ref).catch(() => null);
    await refreshAfterAction(qc, refresh);
  };
  return (
    <Button data-testid="doc-withdraw" onClick={() => void withdraw()}>
      撤回
    </Button>
  );
}
