import { useContext } from 'react';
import { UNSAFE_LocationContext } from 'react-router';
import { normalizePath } from '../routing/route-table';

/**
 * The `name` of an antd Form, unique to the page it is on (docs/architecture.md "Editors keep
 * their input"). Every open tab keeps its page mounted, so a hidden list and the open editor are
 * in the document together; antd gives each field the id `<form name>_<field>` (the bare field
 * name when the form has none), and two forms with a `contractNo` field would give two inputs
 * one id, with every `<label for>` pointing at the first. Prefixed with the page's path, the ids
 * differ from page to page and from the pages' unnamed (search) forms.
 */
export function pageFormName(path: string, form: string): string {
  const page = idSafe(normalizePath(path).replace(/^\/+/, ''));
  return `${page || 'home'}-${idSafe(form)}`;
}

/** Letters, digits and dashes only, so that an id stays a plain CSS selector. */
function idSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/**
 * `pageFormName` of the page rendering the form (a hidden tab sees the location it was left at).
 * Outside a router (a component rendered on its own) the form is named as on the home page.
 */
export function usePageFormName(form: string): string {
  // The context itself rather than useLocation(), which throws outside a router.
  const location = useContext(UNSAFE_LocationContext) as { location?: { pathname: string } } | null;
  return pageFormName(location?.location?.pathname ?? '/', form);
}
