import { GEO_PATHS } from '@portal/contract/geo';
import { pidQuery } from '@portal/contract/fields';
import type { PortalModule } from '../../platform/module';
import { geo } from './data';

const p = (path: string) => `/api${path}`;

export const geoModule: PortalModule = {
  name: 'geo',
  register({ api }) {
    // Built at start-up: a broken data set fails the start, not a user's request.
    geo();
    api.post(p(GEO_PATHS.provinces), { perm: 'session', get: true }, async () => geo().provinces);
    api.post(
      p(GEO_PATHS.areas),
      { perm: 'session', query: pidQuery, get: true },
      async ({ query }) => geo().children.get(query.pid) ?? [],
    );
    api.post(p(GEO_PATHS.linkage), { perm: 'session', get: true }, async () => geo().tree);
    api.post(p(GEO_PATHS.linkageChild), { perm: 'session', query: pidQuery, get: true }, async ({ query }) =>
      (geo().children.get(query.pid) ?? []).map((d) => ({
        value: d.code,
        label: d.name,
        isLeaf: !geo().children.has(d.code),
      })),
    );
  },
};
