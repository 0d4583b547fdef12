import { GEO_PATHS } from '@portal/contract/geo';
import { pidQuery } from '@portal/contract/fields';
import type { PortalModule } from '../../platform/module';
import { geo } from './data';

import { UNSCOPED } from '../../platform/http/route-scope';

export const geoModule: PortalModule = {
  name: 'geo',
  register({ api }) {
    // Built at start-up: a broken data set fails the start, not a user's request.
    geo();
    api.post(
      GEO_PATHS.provinces,
      { perm: 'session', scope: UNSCOPED.reference, get: true },
      async () => geo().provinces,
    );
    api.post(
      GEO_PATHS.areas,
      { perm: 'session', scope: UNSCOPED.reference, query: pidQuery, get: true },
      async ({ query }) => geo().children.get(query.pid) ?? [],
    );
    api.post(
      GEO_PATHS.linkage,
      { perm: 'session', scope: UNSCOPED.reference, get: true },
      async () => geo().tree,
    );
    api.post(
      GEO_PATHS.linkageChild,
      { perm: 'session', scope: UNSCOPED.reference, query: pidQuery, get: true },
      async ({ query }) =>
        (geo().children.get(query.pid) ?? []).map((d) => ({
          value: d.code,
          label: d.name,
          isLeaf: !geo().children.has(d.code),
        })),
    );
  },
};
