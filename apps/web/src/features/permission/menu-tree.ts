import type { MenuTreeNode } from '@portal/contract/permission';

export interface TreeIndex {
  parentOf: Map<string, string | null>;
  childrenOf: Map<string, string[]>;
  /** Menus with menus below them (账务管理): granted only for what they hold. */
  directories: Set<string>;
}

export function indexTree(nodes: readonly MenuTreeNode[]): TreeIndex {
  const parentOf = new Map<string, string | null>();
  const childrenOf = new Map<string, string[]>();
  const directories = new Set<string>();
  const walk = (list: readonly MenuTreeNode[], parent: string | null) => {
    for (const n of list) {
      parentOf.set(n.code, parent);
      if (n.children?.some((c) => c.kind === 'menu')) directories.add(n.code);
      childrenOf.set(
        n.code,
        (n.children ?? []).map((c) => c.code),
      );
      if (n.children) walk(n.children, n.code);
    }
  };
  walk(nodes, null);
  return { parentOf, childrenOf, directories };
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
 * The role editor's check rule (RuoYi's): checking a node grants it with everything below it and
 * the menus above it; unchecking takes it away with everything below, and a directory above left
 * with nothing granted below it goes too. A screen stays without its buttons (read only).
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
    for (let p = index.parentOf.get(code); p && index.directories.has(p); p = index.parentOf.get(p)) {
      if (descendants(index, p).some((d) => next.has(d))) break;
      next.delete(p);
    }
  }
  return next;
}

/**
 * What the tree shows of the granted codes (antd's `checkStrictly` keys): a node is ticked when it
 * and everything below it are granted, half-ticked when only part of that is. A parent granted for
 * one of its children is therefore never shown as granting them all, and a click on it grants the
 * rest instead of taking the one away.
 */
export function treeChecks(
  granted: ReadonlySet<string>,
  index: TreeIndex,
): { checked: string[]; halfChecked: string[] } {
  const checked: string[] = [];
  const halfChecked: string[] = [];
  for (const code of index.parentOf.keys()) {
    const below = [code, ...descendants(index, code)];
    const held = below.filter((c) => granted.has(c)).length;
    if (held === below.length) checked.push(code);
    else if (held > 0) halfChecked.push(code);
  }
  return { checked, halfChecked };
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
