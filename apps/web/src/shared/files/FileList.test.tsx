import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';

const http = vi.hoisted(() => ({
  post: vi.fn(),
  exportFile: vi.fn(),
  buildUrl: (path: string, q: Record<string, string>) => `/api${path}?${new URLSearchParams(q).toString()}`,
}));
const feedback = vi.hoisted(() => ({
  showWarning: vi.fn(),
  showClosableWarning: vi.fn(),
  confirmAction: vi.fn(),
}));
vi.mock('../request/http', () => http);
vi.mock('../ui/feedback', () => feedback);

import { FileList } from './FileList';

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const pdf = { fileToken: 'a'.repeat(32), originFileName: '合同.pdf', size: 2048 };
const xlsx = { fileToken: 'b'.repeat(32), originFileName: '明细.xlsx', size: 10 };

describe('<FileList> (attachments of a document)', () => {
  it('previews a PDF through a single-use link in the PDF viewer', async () => {
    http.post.mockResolvedValue({ downloadToken: 'c'.repeat(32), expiresAt: '' });
    render(<FileList value={[pdf, xlsx]} readOnly />);
    expect(screen.getByText('合同.pdf')).toBeTruthy();
    expect(screen.getByText('2.0 KB')).toBeTruthy();
    fireEvent.click(screen.getAllByText('预览')[0]!);
    const viewer = (await screen.findByTestId('pdf-viewer')) as HTMLIFrameElement;
    expect(http.post).toHaveBeenCalledWith('/admin/portal/third/file/downloadToken', {
      fileToken: pdf.fileToken,
    });
    expect(viewer.getAttribute('src')).toContain(
      `/api/admin/portal/third/file/preview?fileToken=${pdf.fileToken}`,
    );
    expect(viewer.getAttribute('src')).toContain(`downloadToken=${'c'.repeat(32)}`);
  });

  it('warns 该附件格式不支持预览！ for other types, and asks before downloading', async () => {
    render(<FileList value={[xlsx]} readOnly />);
    fireEvent.click(screen.getByText('预览'));
    expect(feedback.showWarning).toHaveBeenCalledWith('该附件格式不支持预览！');
    expect(http.post).not.toHaveBeenCalled();
    feedback.confirmAction.mockResolvedValue(false);
    fireEvent.click(screen.getByText('下载'));
    await vi.waitFor(() => expect(feedback.confirmAction).toHaveBeenCalled());
    expect(http.exportFile).not.toHaveBeenCalled();
    feedback.confirmAction.mockResolvedValue(true);
    fireEvent.click(screen.getByText('下载'));
    await vi.waitFor(() =>
      expect(http.exportFile).toHaveBeenCalledWith('/admin/portal/third/file/origin/down/load', undefined, {
        envelope: false,
        query: { fileToken: xlsx.fileToken, originFileName: '明细.xlsx' },
        fileName: '明细.xlsx',
      }),
    );
  });

  it('previews an image from a blob fetched with the session (an <img> may load twice)', async () => {
    const createObjectURL = vi.fn(() => 'blob:portal/1');
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: createObjectURL });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
    http.exportFile.mockResolvedValue(new Blob(['png'], { type: 'image/png' }));
    render(<FileList value={[{ fileToken: 'd'.repeat(32), originFileName: '执照.PNG' }]} readOnly />);
    fireEvent.click(screen.getByText('预览'));
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(http.exportFile).toHaveBeenCalledWith('/admin/portal/third/file/preview', undefined, {
      envelope: false,
      query: { fileToken: 'd'.repeat(32) },
      save: false,
    });
    expect(http.post).not.toHaveBeenCalled();
  });

  it('shows no upload or remove buttons when read-only', () => {
    render(<FileList value={[pdf]} readOnly />);
    expect(screen.queryByText('上传附件')).toBeNull();
    expect(screen.queryByText('移除')).toBeNull();
    cleanup();
    render(<FileList value={[pdf]} onChange={() => undefined} />);
    expect(screen.getByText('上传附件')).toBeTruthy();
    expect(screen.getByText('移除')).toBeTruthy();
  });
});
