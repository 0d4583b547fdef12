import { createPortal } from 'react-dom';
import type { ReactNode } from 'react';
import { create } from 'zustand';

/**
 * Audit sidebar of the website layout: the layout owns the place (`setAuditSlotTarget`),
 * a screen fills it with `<AuditSidebar>…</AuditSidebar>` (the audit tabs come with approvals).
 */
interface AuditSlotState {
  target: HTMLElement | null;
}

export const useAuditSlotStore = create<AuditSlotState>()(() => ({ target: null }));

export function setAuditSlotTarget(el: HTMLElement | null): void {
  if (useAuditSlotStore.getState().target !== el) useAuditSlotStore.setState({ target: el });
}

export function AuditSidebar({ children }: { children: ReactNode }) {
  const target = useAuditSlotStore((s) => s.target);
  return target ? createPortal(<div className="audit-sidebar__content">{children}</div>, target) : null;
}
