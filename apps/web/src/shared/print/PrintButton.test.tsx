import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { AUTH_PATHS } from '@portal/contract/session';
import { PRINT_PATHS, type PdfStatus } from '@portal/contract/print';

const post = vi.hoisted(() => vi.fn());
vi.mock('../request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../request/http')>()),
  post,
}));

import { renderScreen } from '../../test/render-screen';
import { PrintButton } from './PrintButton';

const REASON =
  'PDF打印不可用：服务器上CHROMIUM_PATH所指的Chromium不存在或不可执行，请联系管理员；请用“预览”在浏览器中打印';

function renderWith(status: PdfStatus) {
  post.mockImplementation((path: string) => {
    if (path === AUTH_PATHS.buttons) return Promise.resolve(['ft-contract-info:print']);
    if (path === PRINT_PATHS.pdfStatus) return Promise.resolve(status);
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  renderScreen(<PrintButton docCode="000000000021" types={['contract']} />, '/');
}

async function openMenu() {
  fireEvent.mouseEnter(await screen.findByTestId('print-button'));
  return screen.findByRole('menu');
}

afterEach(() => {
  cleanup();
  post.mockReset();
});

describe('打印 on a server without PDFs', () => {
  it('greys out 查看PDF and 下载PDF and says why before anyone clicks; 预览 stays', async () => {
    renderWith({ available: false, reason: REASON });
    const menu = await openMenu();
    expect(await within(menu).findByText(REASON)).toBeTruthy();
    const pdf = within(menu).getByText('查看PDF（不可用）').closest('li')!;
    expect(pdf.getAttribute('aria-disabled')).toBe('true');
    expect(within(menu).getByText('下载PDF（不可用）')).toBeTruthy();
    expect(within(menu).getByText('预览').closest('li')!.getAttribute('aria-disabled')).not.toBe('true');
  });

  it('offers the PDF entries as usual where PDFs render', async () => {
    renderWith({ available: true, reason: null });
    const menu = await openMenu();
    expect(within(menu).getByText('查看PDF').closest('li')!.getAttribute('aria-disabled')).not.toBe('true');
    expect(within(menu).queryByText(/不可用/)).toBeNull();
  });
});
