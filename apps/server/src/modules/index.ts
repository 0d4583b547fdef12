import type { PortalModule } from '../platform/module';
import { authModule } from './auth/routes';
import { geoModule } from './geo/routes';
import { rulerModule } from './ruler/routes';

/** Every business area, in registration (and seeding) order. */
export const MODULES: readonly PortalModule[] = [authModule, geoModule, rulerModule];
