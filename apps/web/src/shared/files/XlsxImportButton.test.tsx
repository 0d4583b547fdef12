import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { XlsxImportButton } from './XlsxImportButton';

afterEach(cleanup);

const sheet = () => new File(['x'], '明细.xlsx', { type: 'application/octet-stream' });
const pick = (file: File) =>
  act(() => {
    fireEvent.change(input(), { target: { files: [file] } });
  });
const input = () => document.querySelector<HTMLInputElement>('input[type=file]')!;
const button = () => screen.getByRole('button', { name: /导入应收账款/ });

describe('<XlsxImportButton> (an xlsx import waits for its reading)', () => {
  it('is loading and takes no second file until the reading answers, then takes one again', async () => {
    let answer!: () => void;
    const read = vi.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    render(<XlsxImportButton read={read}>导入应收账款</XlsxImportButton>);
    await pick(sheet());
    expect(read).toHaveBeenCalledTimes(1);
    expect(button().className).toContain('ant-btn-loading');
    expect(input().disabled).toBe(true);

    await act(async () => answer());
    expect(button().className).not.toContain('ant-btn-loading');
    await pick(sheet());
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('comes back after a failed reading too', async () => {
    let fail!: (e: Error) => void;
    const read = vi.fn(() => new Promise<void>((_, reject) => (fail = reject)));
    render(<XlsxImportButton read={read}>导入应收账款</XlsxImportButton>);
    await pick(sheet());
    expect(button().className).toContain('ant-btn-loading');
    await act(async () => fail(new Error('表头不符')));
    expect(button().className).not.toContain('ant-btn-loading');
    expect(input().disabled).toBe(false);
  });
});
