import type { MenuTreeNode } from '@portal/contract/permission';

export interface TreeIndex {
  parentOf: Map<string, string | null>;
  childrenOf: Map<string, string[]>;
}

export function indexTree(nodes: readonly MenuTreeNode[]): TreeIndex {
  const parentOf = new Map<string, string | null>();
  const childrenOf = new Map<string, string[]>();
  const walk = (list: readonly MenuTreeNode[], parent: string | null) => {
    for (const n of list) {
      parentOf.set(n.code, parent);
      childrenOf.set(
        n.code,
        (n.children ?? []).map((c) => c.code),
      );
      if (n.children) walk(n.children, n.code);
    }
  };
  walk(nodes, null);
  return { parentOf, childrenOf };
}

function descendants(index: TreeIndex, code: string): string[] {
  const out: string[] = [];
  const stack = [...(index.childrenOf.get(code) ?? [])];
  while (stack.length) {
    const c = stack.pop()!;
    out.push(c);
    stack.push(...(index.childrenOf.get(c) ?? []));
  }
  return out;
}

/**
 * The role editor's check rule: checking a node grants it with everything below it and the menus
 * above it; unchecking takes it away with everything below (the menus above stay). A menu can
 * thus be granted without its buttons.
 */
export function toggleCode(
  checked: ReadonlySet<string>,
  index: TreeIndex,
  code: string,
  on: boolean,
): Set<string> {
  const next = new Set(checked);
  if (on) {
    next.add(code);
    for (const d of descendants(index, code)) next.add(d);
    for (let p = index.parentOf.get(code); p; p = index.parentOf.get(p)) next.add(p);
  } else {
    next.delete(code);
    for (const d of descendants(index, code)) next.delete(d);
  }
  return next;
}

/** Every code of the tree, menus and buttons. */
export function allCodes(nodes: readonly MenuTreeNode[]): string[] {
  return nodes.flatMap((n) => [n.code, ...allCodes(n.children ?? [])]);
}

/** The codes of the nodes that have children: what 展开全部 opens. */
export function branchCodes(nodes: readonly MenuTreeNode[]): string[] {
  return nodes.flatMap((n) => (n.children?.length ? [n.code, ...branchCodes(n.children)] : []));
}

/**
 * The tree cut down to what matches `query` (title or code, case-insensitive): a matching node
 * keeps everything below it (a menu found shows its buttons), a node above a match stays as the
 * path to it. An empty query keeps the whole tree.
 */
export function filterTree(nodes: readonly MenuTreeNode[], query: string): MenuTreeNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...nodes];
  return nodes.flatMap((n) => {
    if (n.title.toLowerCase().includes(q) || n.code.toLowerCase().includes(q)) return [n];
    const children = filterTree(n.children ?? [], q);
    return children.length ? [{ ...n, children }] : [];
  });
}
