import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SaveButtons } from './SaveButtons';

/**
 * One kit for 保存 / 保存并提交 (docs/architecture.md "Editors keep their input"): every editor's
 * pair is SaveButtons, so they read, disable and wait alike.
 */
afterEach(cleanup);

describe('SaveButtons', () => {
  it('保存 saves, 保存并提交 saves and submits; a document that cannot be submitted yet shows 保存 alone', async () => {
    const save = vi.fn(() => Promise.resolve());
    render(<SaveButtons save={save} testIds={{ save: 's', submit: 'u' }} />);
    fireEvent.click(screen.getByTestId('s'));
    fireEvent.click(screen.getByTestId('u'));
    await waitFor(() => expect(save.mock.calls).toEqual([[false], [true]]));
    cleanup();
    render(<SaveButtons save={save} submit={false} />);
    expect(screen.getByRole('button', { name: /保\s*存/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '保存并提交' })).toBeNull();
  });

  it('no screen writes its own 保存并提交 button', () => {
    // The source of every screen and shared component (tests aside): a button whose text is
    // 保存并提交 is written only here. (A dialog's okText is not a pair of editor buttons.)
    const sources = import.meta.glob<string>(
      ['../../**/*.tsx', '!../../**/*.test.tsx', '!./SaveButtons.tsx'],
      {
        query: '?raw',
        import: 'default',
        eager: true,
      },
    );
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    const handWritten = Object.entries(sources)
      .filter(([, text]) => />\s*保存并提交\s*</.test(text))
      .map(([path]) => path);
    expect(handWritten).toEqual([]);
  });
});
