import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../db/audit';
import type { SessionUser } from '../auth/sessions';
import type { GrantTarget, RouteScope } from './route-scope';

/**
 * Who may call a route (docs/protocol.md "Menu and button codes"): `public` needs no session, `session` any
 * signed-in user, otherwise a menu/button code (or any one of several) that the user's roles must grant.
 */
export type Perm = 'public' | 'session' | string | readonly string[];

type Schema = z.ZodType | undefined;
export type Infer<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteOptions<B extends Schema, Q extends Schema> {
  perm: Perm;
  /** The rows the route touches and whose data scope applies (route-scope.ts), or `{ none: reason }`. */
  scope: RouteScope;
  /**
   * The user or role the route acts on (reset, disable, remove, change; route-scope.ts): refused
   * with 401 when it grants more than the caller holds. Administrators act on any.
   */
  within?: GrantTarget;
  body?: B;
  query?: Q;
  /** Also answer GET (menus, downloads: docs/protocol.md "Paths and methods"). */
  get?: boolean;
  /**
   * The envelope (docs/protocol.md "The envelope"). Default: required for every call with a session and every
   * public call with a body; `false` for multipart uploads and GET downloads.
   */
  envelope?: boolean;
  /** The handler writes the reply itself (files, xlsx, PDF); its return value is ignored. */
  raw?: boolean;
  /** Short description for the OpenAPI document. */
  summary?: string;
  /**
   * A call the browser makes by itself (the message bell's poll): it does not count as activity,
   * so an open tab does not keep an idle session alive (docs/operations.md "Messages").
   */
  background?: boolean;
  /**
   * Answer with an ETag of the data; a GET whose If-None-Match names it gets 304 and no body
   * (docs/protocol.md "Conditional GET"). Implies `get`.
   */
  revalidate?: boolean;
}

export interface HandlerContext<B extends Schema, Q extends Schema> {
  body: Infer<B>;
  query: Infer<Q>;
  /** The signed-in user (undefined only on public routes). */
  user: SessionUser;
  actor: Actor;
  req: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<B extends Schema, Q extends Schema> = (ctx: HandlerContext<B, Q>) => Promise<unknown>;

export interface RouteRecord {
  method: 'POST' | 'GET';
  path: string;
  /** The module that registered the call (docs/screen-index.md is generated from it). */
  module: string;
  perm: Perm;
  scope: RouteScope;
  within?: GrantTarget;
  body?: z.ZodType;
  query?: z.ZodType;
  envelope: boolean;
  summary?: string;
}

/** What business modules register their calls with. */
export interface Api {
  /** `path` is the contract package's path (`/ft/api/...`); the call is served at `/api` + path. */
  post<B extends Schema = undefined, Q extends Schema = undefined>(
    path: string,
    opts: RouteOptions<B, Q>,
    handler: Handler<B, Q>,
  ): void;
}

export function permAllows(perm: Perm, user: SessionUser | undefined): 'ok' | 'noSession' | 'noCode' {
  if (perm === 'public') return 'ok';
  if (!user) return 'noSession';
  if (perm === 'session') return 'ok';
  if (user.codes.has('admin')) return 'ok';
  const needed = typeof perm === 'string' ? [perm] : perm;
  return needed.some((c) => user.codes.has(c)) ? 'ok' : 'noCode';
}
