import { preloadable } from '../../shared/ui/preloadable';

/** The two layouts (docs/architecture.md "Layouts and their numbers"), loaded with the first screen that needs them. */
export const ManagementLayout = preloadable(() => import('./management/ManagementLayout'));
export const WebsiteLayout = preloadable(() => import('./website/WebsiteLayout'));

/**
 * antd's theme, locale and stylesheet over every route but the login page's (docs/architecture.md
 * "The first screen without antd"), fetched with the first screen's chunks.
 */
export const AntdShell = preloadable(() => import('../antd-shell'));
