import type { SessionUser } from '../auth/sessions';
import {
  normaliseCode,
  PLATFORM_SCOPE_KINDS,
  rowVisibility,
  scopeKind,
  type ScopeKind,
} from '../auth/row-scope';
import { PERMISSION_MESSAGES } from '@portal/contract/permission';
import { grantBeyond, roleGrant, userGrant, type Grant } from '../auth/grant';
import type { Executor } from '../db/client';
import { noPermission, notFound } from '../errors';

/**
 * A route's row scope, declared next to its `perm` (docs/architecture.md "Who may see a row"):
 * - a kind (`'contract'`): the rows the route reads or writes, found from the request by the
 *   kind's parameter names (platform/auth/row-scope.ts);
 * - `{ kind, params }`: the same, when the route names its row by other parameters;
 * - `{ none: 'reason' }`: deliberately unscoped (reference data, the user's own things, pickers);
 *   the reason is printed by scope.test.ts and the OpenAPI document.
 */
export type ScopedRows = ScopeKind | { kind: ScopeKind; params: readonly string[] };
/** A route may name rows of several kinds (an account and the customer it is saved for). */
export type RouteScope = ScopedRows | readonly ScopedRows[] | { none: string };

export interface ResolvedRowScope {
  kind: ScopeKind;
  params: readonly string[];
}

/** The kinds and parameter names of a scoped route; undefined for `{ none }`. */
export function resolveRouteScope(scope: RouteScope): ResolvedRowScope[] | undefined {
  if (typeof scope === 'object' && 'none' in scope) {
    if (scope.none.trim().length < 8) throw new Error('scope { none } needs a reason');
    return undefined;
  }
  const list: readonly ScopedRows[] = Array.isArray(scope) ? scope : [scope as ScopedRows];
  return list.map((s) =>
    typeof s === 'string' ? { kind: s, params: scopeKind(s).params } : { kind: s.kind, params: s.params },
  );
}

/** A list of rows of a kind: narrowed by its handler, it names no row (no parameters checked). */
export const listOf = (kind: ScopeKind): ScopedRows => ({ kind, params: [] });

/** The codes the request names by these parameters, as the route's `code()` fields will read them. */
function namedCodes(
  params: readonly string[],
  sources: readonly unknown[],
  read: (raw: unknown) => string | undefined = normaliseCode,
): Set<string> {
  const codes = new Set<string>();
  for (const source of sources) {
    if (typeof source !== 'object' || source === null) continue;
    for (const name of params) {
      const value = read((source as Record<string, unknown>)[name]);
      if (value !== undefined) codes.add(value);
    }
  }
  return codes;
}

/**
 * Answers 404 before validation and the handler when the request names a row outside the user's
 * data scope: whoever may not see the row learns nothing, not even whether their body was valid,
 * and nothing is written. The raw values are normalised as the route's `code()` fields read them,
 * so a full-width spelling of a code is checked like the code itself. A row that does not exist
 * is left to the handler (a new document, or its own 404).
 */
export async function refuseOutOfScope(
  ex: Executor,
  scopes: readonly ResolvedRowScope[],
  user: SessionUser,
  sources: readonly unknown[],
): Promise<void> {
  if (user.dataScope === 'all') return;
  for (const scope of scopes) {
    const def = scopeKind(scope.kind);
    for (const c of namedCodes(scope.params, sources)) {
      if ((await rowVisibility(ex, scope.kind, c, user)) === 'hidden') throw notFound(def.label);
    }
  }
}

/**
 * The user or role a route acts on, declared next to its `perm` and `scope` as `within`
 * (SECURITY.md "No escalation"): who is not an administrator may act on it only when it grants no
 * code they lack and reaches no organisation their data scope does not. Named by the same
 * parameters as its row scope.
 */
export type GrantTarget = 'staff' | 'staffByName' | 'staffBySession' | 'role';

export const GRANT_TARGETS: Record<
  GrantTarget,
  {
    params: readonly string[];
    read(ex: Executor, code: string, user: SessionUser): Promise<Grant | undefined>;
    /** How the route's validation will read the parameter; a 12-digit code when absent. */
    value?: (raw: unknown) => string | undefined;
    msg: string;
  }
> = {
  staff: {
    params: PLATFORM_SCOPE_KINDS.staff.params,
    read: (ex, userCode) => userGrant(ex, { userCode }),
    msg: PERMISSION_MESSAGES.userWider,
  },
  // 登录日志's unlock and 在线用户's 强退 name the user by sign-in name and by session; their routes
  // narrow rows in the handler, so a user outside the caller's scope is left to its 404.
  staffByName: {
    params: ['userName'],
    read: (ex, userName, user) => userGrant(ex, { userName }, user),
    value: (raw) => (typeof raw === 'string' ? raw.normalize('NFKC').trim() || undefined : undefined),
    msg: PERMISSION_MESSAGES.userWider,
  },
  staffBySession: {
    params: ['sessionId'],
    read: (ex, sessionId, user) => userGrant(ex, { sessionId }, user),
    value: (raw) => (/^[1-9]\d{0,15}$/.test(String(raw)) ? String(raw) : undefined),
    msg: PERMISSION_MESSAGES.userWider,
  },
  role: { params: ['bizCode'], read: roleGrant, msg: PERMISSION_MESSAGES.roleWider },
};

/**
 * Answers 401 before validation and the handler when the request names a user or role that
 * grants more than the caller holds; run after the row scope, so a target outside the scope stays
 * a 404. A target that does not exist is left to the handler.
 */
export async function refuseWiderTarget(
  ex: Executor,
  target: GrantTarget,
  user: SessionUser,
  sources: readonly unknown[],
): Promise<void> {
  const def = GRANT_TARGETS[target];
  for (const c of namedCodes(def.params, sources, def.value)) {
    const grant = await def.read(ex, c, user);
    if (grant && (await grantBeyond(ex, user, grant))) throw noPermission(def.msg);
  }
}

/** The reasons shared by deliberately unscoped routes (SECURITY.md "Row scope"). */
export const UNSCOPED = {
  public: { none: 'public: before sign-in, nothing of anyone is read' },
  own: { none: "the caller's own session, account, menus or inbox" },
  reference: { none: 'reference data without an owner (dictionaries, regions, rules, templates)' },
  picker: { none: 'a picker: codes and display names the forms of its menu choose from' },
  admin: { none: 'administration of the portal itself, held by its administrators' },
} as const satisfies Record<string, RouteScope>;
