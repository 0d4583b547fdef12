import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Form, type FormInstance } from 'antd';
import type { FileItem } from './files-api';

const api = vi.hoisted(() => ({ uploadFile: vi.fn() }));
const feedback = vi.hoisted(() => ({
  showWarning: vi.fn(),
  showClosableWarning: vi.fn(),
  confirmAction: vi.fn(),
}));
vi.mock('./files-api', async (actual) => ({ ...(await actual<object>()), ...api }));
vi.mock('../ui/feedback', () => feedback);

import { validValues } from '../ui/valid-values';
import { FileList } from './FileList';
import { FilesField } from './FilesField';
import { uploadingMessage, useUploadGuard, type UploadGuard } from './upload-guard';

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const letter: FileItem = { fileToken: 'e'.repeat(32), originFileName: '授权委托书.pdf', size: 10 };

/** An upload the test finishes when it chooses. */
function pendingUpload(): (info: FileItem) => Promise<void> {
  let finish!: (info: FileItem) => void;
  api.uploadFile.mockImplementation(() => new Promise<FileItem>((resolve) => (finish = resolve)));
  return async (info) => {
    await act(async () => finish(info));
  };
}

async function choose(name: string): Promise<void> {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { files: [new File(['%PDF'], name, { type: 'application/pdf' })] } });
  });
  await vi.waitFor(() => expect(api.uploadFile).toHaveBeenCalled());
}

describe('a save while an attachment is uploading', () => {
  it('fails under the field until the upload ends, then carries the file', async () => {
    const finish = pendingUpload();
    let form!: FormInstance<{ files: FileItem[] }>;
    function Editor() {
      [form] = Form.useForm<{ files: FileItem[] }>();
      return (
        <Form form={form} initialValues={{ files: [] }}>
          <FilesField name="files" label="授权委托书" />
        </Form>
      );
    }
    render(<Editor />);
    await choose('授权委托书.pdf');

    let values: { files: FileItem[] } | undefined;
    await act(async () => void (values = await validValues(form)));
    expect(values).toBeUndefined();
    expect(await screen.findByText(uploadingMessage('授权委托书'))).toBeTruthy();

    await finish(letter);
    await vi.waitFor(() => expect(screen.queryByText(uploadingMessage('授权委托书'))).toBeNull());
    await act(async () => void (values = await validValues(form)));
    expect(values?.files.map((f) => f.fileToken)).toEqual([letter.fileToken]);
  });

  it('is refused with a warning where the list is saved without a form', async () => {
    const finish = pendingUpload();
    let guard!: UploadGuard;
    function Section() {
      guard = useUploadGuard('分配文件');
      return <FileList value={[]} onChange={() => undefined} onUploadingChange={guard.onUploadingChange} />;
    }
    render(<Section />);
    expect(guard.settled()).toBe(true);
    await choose('分配表.pdf');
    expect(guard.settled()).toBe(false);
    expect(feedback.showWarning).toHaveBeenCalledWith(uploadingMessage('分配文件'));
    await finish(letter);
    expect(guard.settled()).toBe(true);
  });

  it('stays refused while a second file is still uploading', async () => {
    const finishes: ((info: FileItem) => void)[] = [];
    api.uploadFile.mockImplementation(() => new Promise<FileItem>((resolve) => finishes.push(resolve)));
    let guard!: UploadGuard;
    function Section() {
      guard = useUploadGuard();
      return <FileList value={[]} onChange={() => undefined} onUploadingChange={guard.onUploadingChange} />;
    }
    render(<Section />);
    await choose('一.pdf');
    await choose('二.pdf');
    await vi.waitFor(() => expect(finishes).toHaveLength(2));
    await act(async () => finishes[0]!(letter));
    expect(guard.settled()).toBe(false);
    await act(async () => finishes[1]!({ ...letter, fileToken: 'f'.repeat(32) }));
    expect(guard.settled()).toBe(true);
  });
});
