import { useMemo, useState } from 'react';
import type { OrgNode } from '@portal/contract/permission';

/**
 * Tree expansion for the organisation trees: everything open, including nodes added later, except
 * what the user has folded.
 */
export function useExpandAll(nodes: readonly OrgNode[]) {
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set());
  const expandedKeys = useMemo(() => {
    const out: string[] = [];
    const walk = (list: readonly OrgNode[]) => {
      for (const n of list) {
        if (n.children.length > 0 && !folded.has(n.deptBizCode)) out.push(n.deptBizCode);
        walk(n.children);
      }
    };
    walk(nodes);
    return out;
  }, [nodes, folded]);
  const onExpand = (_keys: unknown, info: { expanded: boolean; node: { key: string | number | bigint } }) => {
    const key = String(info.node.key);
    setFolded((prev) => {
      const next = new Set(prev);
      if (info.expanded) next.delete(key);
      else next.add(key);
      return next;
    });
  };
  return { expandedKeys, onExpand };
}
