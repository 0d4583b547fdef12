import { useMemo } from 'react';
import { findRoute } from '../../../shared/routing/route-table';
import { useTagsStore } from '../../tags-view/tags-store';
import { KeptPages, type KeepRule } from '../common/KeptPages';

/**
 * Per-tab page state (docs/architecture.md "Editors keep their input"): the page of every open tab
 * stays mounted (KeptPages), editors (noCache routes) included, so a tab switch loses no input;
 * an editor is mounted afresh when its tab is entered again with another query (another
 * document), after asking when it holds unsaved input; Refresh remounts one page; a closed tab
 * releases its page.
 */
export function KeepAliveOutlet() {
  const cached = useTagsStore((s) => s.cached);
  const refresh = useTagsStore((s) => s.refresh);
  const rule = useMemo<KeepRule>(
    () => ({
      keeps: (kept) => cached.includes(kept.path),
      freshOnEntry: (path) => !!findRoute(path)?.noCache,
    }),
    [cached],
  );
  return <KeptPages rule={rule} refresh={refresh} />;
}
