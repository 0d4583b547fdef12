import { AUTH_PATHS, loginSchema, menuButtonsSchema } from '@portal/contract/auth';
import { passwordChangeSchema } from '@portal/contract/password';
import type { PortalModule } from '../../platform/module';
import { revokeSession } from '../../platform/auth/sessions';
import { writeAudit } from '../../platform/db/audit';
import { issueCaptcha } from './captcha';
import { buttonCodes, changePassword, login, menuCodes, userInfo } from './service';

const p = (path: string) => `/api${path}`;

export const authModule: PortalModule = {
  name: 'auth',
  register({ api, db, config, keyring }) {
    api.post(
      p(AUTH_PATHS.rsaKey),
      { perm: 'public', summary: 'RSA public key for the request envelope' },
      async () => keyring.publicKey(),
    );

    api.post(p(AUTH_PATHS.captcha), { perm: 'public', summary: 'login captcha (SVG)' }, async () => {
      const { vCodeToken, image } = await issueCaptcha(db);
      return { vCodeToken, image };
    });

    api.post(
      p(AUTH_PATHS.login),
      { perm: 'public', body: loginSchema, summary: 'login' },
      async ({ body, req }) =>
        login(db, config, body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }),
    );

    api.post(p(AUTH_PATHS.logout), { perm: 'session' }, async ({ user, actor }) => {
      await revokeSession(db, user.sessionId);
      await writeAudit(db, actor, { entity: 'session', action: 'logout' });
      return null;
    });

    api.post(p(AUTH_PATHS.userInfo), { perm: 'session' }, async ({ user }) => userInfo(db, user));

    api.post(p(AUTH_PATHS.menus), { perm: 'session', get: true }, async ({ user }) => menuCodes(user));

    api.post(p(AUTH_PATHS.buttons), { perm: 'session', body: menuButtonsSchema }, async ({ user, body }) =>
      buttonCodes(user, body.menuCode),
    );

    api.post(
      p(AUTH_PATHS.passwordUpdate),
      { perm: 'session', body: passwordChangeSchema },
      async ({ user, body, actor }) => {
        await changePassword(db, user, body, actor);
        return null;
      },
    );
  },
};
