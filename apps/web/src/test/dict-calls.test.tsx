import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BANK_PATHS } from '@portal/contract/bank';
import { DEBTOR_PATHS } from '@portal/contract/debtor';
import { PERMISSION_PATHS } from '@portal/contract/permission';
import { PERMIT_PATHS } from '@portal/contract/permit';

const post = vi.hoisted(() => vi.fn());
vi.mock('../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../shared/request/http')>()),
  post,
}));

import { useBankDict } from '../shared/bank/bank-dict';
import { useDebtorDict } from '../shared/debtor/DebtorPicker';
import { useRoleDict } from '../features/permission/api';
import { permitQueries } from '../features/permit/api';

afterEach(() => post.mockReset());

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
const wrapper =
  (c: QueryClient) =>
  ({ children }: { children: ReactNode }) => <QueryClientProvider client={c}>{children}</QueryClientProvider>;

/**
 * Every dictionary the screens read (SPEC 3.16, docs/protocol.md "Values on the wire") takes an
 * answer in any of the spellings PROTOCOL §5 allows, not only `{ code, label }`.
 */
describe('dictionaries in every spelling', () => {
  it.each([
    ['开户银行', BANK_PATHS.dict, useBankDict],
    ['角色', PERMISSION_PATHS.roleDict, useRoleDict],
    ['债务人', DEBTOR_PATHS.dict, useDebtorDict],
  ] as const)('%s: CODE/dictValue keys and dictLabel/FLAG/mark labels', async (_name, path, useDict) => {
    post.mockImplementation((p: string) =>
      Promise.resolve(
        p === path
          ? [
              { CODE: 'A', FLAG: '甲' },
              { dictValue: 'B', dictLabel: '乙' },
              { code: 'C', MARK: '丙' },
            ]
          : [],
      ),
    );
    const { result } = renderHook(() => useDict(), { wrapper: wrapper(client()) });
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data!.map((d) => [d.code, d.label])).toEqual([
      ['A', '甲'],
      ['B', '乙'],
      ['C', '丙'],
    ]);
  });

  it('准入: the areas, states and roles of the admission dictionary', async () => {
    post.mockImplementation((p: string) =>
      Promise.resolve(
        p === PERMIT_PATHS.custDict
          ? {
              areas: [{ dictValue: 'ec', dictLabel: '保理' }],
              states: [{ CODE: 'open', flag: '开通' }],
              roles: { ec: [{ code: 'r1', mark: '核心企业' }] },
            }
          : null,
      ),
    );
    const dict = await client().fetchQuery(permitQueries.dict('cust'));
    expect(dict).toEqual({
      areas: [{ dictValue: 'ec', dictLabel: '保理', code: 'ec', label: '保理' }],
      states: [{ CODE: 'open', flag: '开通', code: 'open', label: '开通' }],
      roles: { ec: [{ code: 'r1', mark: '核心企业', label: '核心企业' }] },
    });
  });
});
