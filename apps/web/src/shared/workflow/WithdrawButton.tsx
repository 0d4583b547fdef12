import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { refreshAfterAction, workflowApi, type DocRef } from './api';
import { useProcess } from './AuditView';

/**
 * 撤回 for the maker of a submitted document while no approver has acted (the server decides:
 * ProcessView.canWithdraw). Afterwards, done or refused, the document's queries under `refresh` and
 * its workflow are fetched again.
 */
export function WithdrawButton({ refresh, ...ref }: DocRef & { refresh: readonly unknown[] }) {
  const qc = useQueryClient();
  const view = useProcess(ref);
  if (!view.data?.canWithdraw) return null;
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
