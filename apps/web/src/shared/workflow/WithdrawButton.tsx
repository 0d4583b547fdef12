import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { workflowApi, workflowKeys, type DocRef } from './api';
import { useProcess } from './AuditView';

/**
 * 撤回 for the maker of a submitted document while no approver has acted (the server decides:
 * ProcessView.canWithdraw). Afterwards the document's queries under `refresh` are fetched again.
 */
export function WithdrawButton({ refresh, ...ref }: DocRef & { refresh: readonly unknown[] }) {
  const qc = useQueryClient();
  const view = useProcess(ref);
  if (!view.data?.canWithdraw) return null;
  const withdraw = async () => {
    const r = await workflowApi.withdraw(ref).catch(() => null);
    if (!r?.ok) return;
    await Promise.all([
      qc.invalidateQueries({ queryKey: workflowKeys.doc(ref) }),
      qc.invalidateQueries({ queryKey: workflowKeys.all }),
      qc.invalidateQueries({ queryKey: refresh }),
    ]);
  };
  return (
    <Button data-testid="doc-withdraw" onClick={() => void withdraw()}>
      撤回
    </Button>
  );
}
