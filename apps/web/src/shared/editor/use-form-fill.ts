import { useContext, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { normalizePath } from '../routing/route-table';
import { FillSectionContext, waitOnPage } from './fill-gate';
import { isDirty } from './unsaved';

/**
 * What fills a form: the record (`data`) and whether it is still on its way (`isLoading`). A
 * query's result is one; a record derived from queries states their loading with it, a value the
 * page has at once (from its URL) `isLoading: false`.
 */
export interface Arriving<R> {
  data: R | null | undefined;
  isLoading: boolean;
}

/**
 * Puts a loaded record into an editor's form (docs/architecture.md "Editors keep their input"):
 * when it first arrives, and again when a later load brings another one, but never over input the
 * user typed and has not saved. A plain `useEffect(() => form.setFieldsValue(…), [data])` would:
 * a page kept behind another tab runs its effects again when it shows (React's `<Activity>`), and
 * a refetch brings a new object. `fill` writes the record into the form(s).
 *
 * The first fill writes whatever the form holds, so until the record has arrived the form takes
 * no input: the wait is declared to the enclosing `FillSection`, else to the page, whose editor
 * frame disables its inputs meanwhile (fill-gate.tsx). A layout effect, so that the inputs are
 * closed before the page is first painted.
 */
export function useFormFill<R>(source: Arriving<R>, fill: (record: R) => void): void {
  const path = normalizePath(useLocation().pathname);
  const section = useContext(FillSectionContext);
  const waiting = source.isLoading;
  useLayoutEffect(() => {
    if (!waiting) return;
    return section ? section.wait() : waitOnPage(path);
  }, [waiting, section, path]);

  const record = source.data;
  const filled = useRef<R | null>(null);
  useEffect(() => {
    if (record === undefined || record === null || record === filled.current) return;
    if (filled.current !== null && isDirty(path)) return;
    filled.current = record;
    fill(record);
  });
}
