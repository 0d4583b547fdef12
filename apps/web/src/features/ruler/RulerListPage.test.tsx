import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toBase64 } from '@portal/contract/envelope';
import { RULER_PATHS } from '@portal/contract/ruler';
import type { RouteMeta } from '../../shared/routing/route-table';

// The dialogs and toasts; the 删除 confirmation is answered 确定.
const feedback = vi.hoisted(() => ({
  showClosableWarning: vi.fn(),
  showWarning: vi.fn(),
  showError: vi.fn(),
  showSuccess: vi.fn(),
  confirmAction: vi.fn(() => Promise.resolve(true)),
}));
vi.mock('../../shared/ui/feedback-lazy', () => feedback);

import { renderScreen } from '../../test/render-screen';
import { refreshListsOnUpdate } from '../../shared/list/list-query';
import { dropKeys } from '../../shared/request/envelope-keys';
import { useSessionStore } from '../../shared/session/session-store';
import RulerListPage from './RulerListPage';
import { RULER_LIST_PATH } from './api';
import { SAMPLE_RULE } from './sample-rule.test-data';

const rule = SAMPLE_RULE;

const meta = { path: RULER_LIST_PATH, title: '计息规则' } as RouteMeta;
// antd tables render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

let publicPem: string;
beforeAll(async () => {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  publicPem = `-----BEGIN PUBLIC KEY-----\n${toBase64(spki)}\n-----END PUBLIC KEY-----`;
});

const ok = (data: unknown) => new Response(JSON.stringify({ status: 200, ok: true, msg: '', data }));

/**
 * The server behind the real request layer (envelope and all): the RSA key, the rule list (the
 * rule until it is deleted, then nothing) and the delete. Answers the paths it was called on.
 */
function serve() {
  const calls: string[] = [];
  let deleted = false;
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const path = new URL(url, 'http://localhost').pathname.replace(/^\/api/, '');
      if (path.endsWith('/rsa/secretKey'))
        return Promise.resolve(ok({ keyId: 'k1', publicKey: publicPem, reuseUntil: Date.now() + 3_600_000 }));
      calls.push(path);
      if (path === RULER_PATHS.list)
        return Promise.resolve(ok(deleted ? { list: [], total: 0 } : { list: [rule], total: 1 }));
      if (path === RULER_PATHS.del) {
        deleted = true;
        return Promise.resolve(ok(null));
      }
      return Promise.reject(new TypeError(`unexpected ${path}`));
    }),
  );
  return { calls: (path: string) => calls.filter((c) => c === path).length };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  dropKeys();
  useSessionStore.setState({ roles: null });
});

describe('计息规则 list after a row action', { timeout: 90_000 }, () => {
  it('删除 fetches the list again through the update (no reload by the screen)', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    const server = serve();
    const { client } = renderScreen(<RulerListPage meta={meta} />, RULER_LIST_PATH);
    // As the app's query client does (app/query-client.ts).
    refreshListsOnUpdate(client);

    const row = (await screen.findByText(rule.name, {}, slow)).closest('tr')!;
    expect(server.calls(RULER_PATHS.list)).toBe(1);

    fireEvent.click(within(row as HTMLElement).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(server.calls(RULER_PATHS.del)).toBe(1), slow);
    expect(feedback.confirmAction).toHaveBeenCalledWith('确认删除计息规则？');
    // The second list call shows the list without the deleted rule.
    await waitFor(() => expect(screen.queryByText(rule.name)).toBeNull(), slow);
    expect(server.calls(RULER_PATHS.list)).toBe(2);
  });
});
