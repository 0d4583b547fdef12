import { create } from 'zustand';
import { addUpdatedListener } from '../request/http';
import { normalizePath } from '../routing/route-table';
import { confirmAction } from '../ui/feedback-lazy';

/**
 * Unsaved input of the editors (docs/architecture.md "Editors keep their input"): the paths of
 * the open editor pages whose forms the user changed since they were loaded or last saved. The
 * tabs ask before closing one of them, the window before a reload.
 */
interface UnsavedState {
  dirty: readonly string[];
}

export const useUnsavedStore = create<UnsavedState>()(() => ({ dirty: [] }));

export function markDirty(path: string): void {
  const { dirty } = useUnsavedStore.getState();
  if (!dirty.includes(path)) useUnsavedStore.setState({ dirty: [...dirty, path] });
}

export function markClean(path: string): void {
  const { dirty } = useUnsavedStore.getState();
  if (dirty.includes(path)) useUnsavedStore.setState({ dirty: dirty.filter((p) => p !== path) });
}

/** Signed out: the editors' pages are gone with their tabs. */
export function clearUnsaved(): void {
  useUnsavedStore.setState({ dirty: [] });
}

export function isDirty(path: string): boolean {
  return useUnsavedStore.getState().dirty.includes(path);
}

export const DISCARD_MESSAGE = '当前页面有未保存的内容，关闭后将丢失，是否继续？';

/**
 * Before closing `paths` (tabs): true when none holds unsaved input or the user agreed to lose
 * it (then they count as clean).
 */
export async function confirmDiscard(paths: readonly string[]): Promise<boolean> {
  const lost = paths.filter(isDirty);
  if (lost.length === 0) return true;
  if (!(await confirmAction({ title: '未保存的内容', content: DISCARD_MESSAGE }))) return false;
  for (const p of lost) markClean(p);
  return true;
}

/**
 * Asks the layout to let go of the page at `path` (its input given up: 返回 of an editor): the
 * management layout closes its tab. The website layout lets a page go as soon as it is left.
 */
export const RELEASE_PAGE_EVENT = 'portal:release-page';

export function releasePage(path: string): void {
  window.dispatchEvent(new CustomEvent<{ path: string }>(RELEASE_PAGE_EVENT, { detail: { path } }));
}

/**
 * Leaving the editor at `path` for `to` (its 返回): with unsaved input, asks first; given up, the
 * page is let go, so that the input is really gone, not waiting in a tab.
 */
export async function leaveEditor(path: string, to: () => void): Promise<void> {
  const dirty = isDirty(path);
  if (!(await confirmDiscard([path]))) return;
  to();
  if (dirty) releasePage(path);
}

// A successful save (any change call) made from the page on screen leaves its editor clean.
addUpdatedListener(() => markClean(normalizePath(window.location.pathname)));

// A reload or leaving the portal with unsaved input asks first (the browser's own dialog).
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (e) => {
    if (useUnsavedStore.getState().dirty.length === 0) return;
    e.preventDefault();
    // Older Chromium shows the dialog only when returnValue is set.
    e.returnValue = '';
  });
}
