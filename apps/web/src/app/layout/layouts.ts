import { preloadable } from '../../shared/ui/preloadable';

/** The two layouts (docs/architecture.md "Layouts and their numbers"), loaded with the first screen that needs them. */
export const ManagementLayout = preloadable(() => import('./management/ManagementLayout'));
export const WebsiteLayout = preloadable(() => import('./website/WebsiteLayout'));
