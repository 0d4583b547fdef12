import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { normalizePath } from '../routing/route-table';
import { isDirty } from './unsaved';

/**
 * Puts a loaded record into an editor's form (docs/architecture.md "Editors keep their input"):
 * when it first arrives, and again when a later load brings another one, but never over input the
 * user typed and has not saved. A plain `useEffect(() => form.setFieldsValue(…), [data])` would:
 * a page kept behind another tab runs its effects again when it shows (React's `<Activity>`), and
 * a refetch brings a new object. `fill` writes the record into the form(s).
 */
export function useFormFill<R>(record: R | null | undefined, fill: (record: R) => void): void {
  const path = normalizePath(useLocation().pathname);
  const filled = useRef<R | null>(null);
  useEffect(() => {
    if (record === undefined || record === null || record === filled.current) return;
    if (filled.current !== null && isDirty(path)) return;
    filled.current = record;
    fill(record);
  });
}
