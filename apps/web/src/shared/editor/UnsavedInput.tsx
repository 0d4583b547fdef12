import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Form } from 'antd';
import { normalizePath } from '../routing/route-table';
import { InputGate, usePageWaiting } from './fill-gate';
import { markDirty } from './unsaved';

/**
 * The unsaved-input guard around the forms of one page (docs/architecture.md "Editors keep their
 * input"): a field the user changes in any form inside marks the page dirty, until a save
 * succeeds (unsaved.ts), so that closing its tab or reloading the window asks first. The editor
 * frame puts it around its body; a list's own edit dialog puts it around its form.
 *
 * It also keeps them from taking input before their record is there: while a fill of the page
 * (`useFormFill`) waits for its record, or while `loading`, every input inside is disabled under
 * a spinner (fill-gate.tsx).
 */
export function UnsavedInput({ children, loading }: { children: ReactNode; loading?: boolean | undefined }) {
  const path = normalizePath(useLocation().pathname);
  const waiting = usePageWaiting(path) || !!loading;
  // No cleanup on unmount: a hidden tab's page (React's <Activity>) runs its effects' cleanups
  // too, and its input is still there. Closing the tab asks and then forgets it (confirmDiscard).
  return (
    <Form.Provider
      onFormChange={(_name, { changedFields }) => {
        // Validation alone (保存 of an untouched form) changes no field the user touched.
        if (changedFields.some((f) => f.touched)) markDirty(path);
      }}
    >
      <InputGate closed={waiting} spin>
        {children}
      </InputGate>
    </Form.Provider>
  );
}
