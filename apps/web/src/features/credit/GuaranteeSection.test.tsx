import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { CREDIT_PATHS, type GuaranteeRow } from '@portal/contract/credit';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
}));

import { GuaranteeEditor } from './GuaranteeSection';

const stored: GuaranteeRow = {
  id: 7,
  guarantorKind: 'person',
  guarantorName: '王五',
  idNo: '11010119800101007X',
  guaranteeType: 'joint',
  amount: '800000.00',
  startDate: '2026-01-01',
  endDate: '2027-01-01',
  status: 'inForce',
  daysLeft: 30,
  releasedOn: null,
  releaseReason: null,
  contractFile: null,
};

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

afterEach(() => {
  cleanup();
  post.mockReset();
});

describe('担保授信 editor', () => {
  it('takes no input until the stored guarantees have arrived, then shows them', async () => {
    let answer: (rows: GuaranteeRow[]) => void = () => undefined;
    post.mockImplementation((path: string) => {
      if (path === CREDIT_PATHS.creditGua) return new Promise<GuaranteeRow[]>((r) => (answer = r));
      if (path === CREDIT_PATHS.creditCollateral || path === CREDIT_PATHS.compList)
        return Promise.resolve([]);
      return Promise.reject(new Error(`unexpected ${path}`));
    });
    renderScreen(
      <GuaranteeEditor bizCode="000000000031" editable formName="t" save={() => Promise.resolve()} />,
      '/factoring/credit/info-editor?bizCode=000000000031',
    );
    const add = await screen.findByRole('button', { name: /添加担保/ }, slow);
    // A row added now would be wiped by the list's first fill; the editor waits for it.
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(CREDIT_PATHS.creditGua, undefined, expect.anything()),
    );
    // Disabled as the browser sees it: the section's fieldset holds even where its form enables
    // itself (an editable credit).
    expect(add.matches(':disabled')).toBe(true);
    answer([stored]);
    await waitFor(() => expect(add.matches(':disabled')).toBe(false), slow);
    expect((screen.getByLabelText('担保人名称') as HTMLInputElement).value).toBe('王五');
  }, 60_000);
});
