import { AUTH_PATHS, loginSchema, menuButtonsSchema } from '@portal/contract/auth';
import { passwordChangeSchema } from '@portal/contract/password';
import type { PortalModule } from '../../platform/module';
import { HashGate } from '../../platform/auth/hash-gate';
import { issueCaptcha } from './captcha';
import { buttonCodes, changePassword, login, logout, menuCodes, userInfo } from './service';

import { UNSCOPED } from '../../platform/http/route-scope';

export const authModule: PortalModule = {
  name: 'auth',
  register({ api, db, config, keyring }) {
    const gate = new HashGate(config.loginHashConcurrency, config.loginHashQueue);
    api.post(
      AUTH_PATHS.rsaKey,
      { perm: 'public', scope: UNSCOPED.public, summary: 'RSA public key for the request envelope' },
      async () => keyring.publicKey(),
    );

    api.post(
      AUTH_PATHS.captcha,
      { perm: 'public', scope: UNSCOPED.public, summary: 'login captcha (SVG)' },
      async () => {
        const { vCodeToken, image } = await issueCaptcha(db);
        return { vCodeToken, image };
      },
    );

    api.post(
      AUTH_PATHS.login,
      { perm: 'public', scope: UNSCOPED.public, body: loginSchema, summary: 'login' },
      async ({ body, req }) =>
        login(db, config, gate, body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }),
    );

    api.post(AUTH_PATHS.logout, { perm: 'session', scope: UNSCOPED.own }, async ({ user, actor }) => {
      await logout(db, user.sessionId, actor);
      return null;
    });

    api.post(AUTH_PATHS.userInfo, { perm: 'session', scope: UNSCOPED.own }, async ({ user }) =>
      userInfo(db, user),
    );

    api.post(AUTH_PATHS.menus, { perm: 'session', scope: UNSCOPED.own, get: true }, async ({ user }) =>
      menuCodes(user),
    );

    api.post(
      AUTH_PATHS.buttons,
      { perm: 'session', scope: UNSCOPED.own, body: menuButtonsSchema },
      async ({ user, body }) => buttonCodes(user, body.menuCode),
    );

    api.post(
      AUTH_PATHS.passwordUpdate,
      { perm: 'session', scope: UNSCOPED.own, body: passwordChangeSchema },
      async ({ user, body, actor }) => {
        await changePassword(db, config, gate, user, body, actor);
        return null;
      },
    );
  },
};
