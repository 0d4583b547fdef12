import { describe, expect, it, vi } from 'vitest';

const post = vi.hoisted(() => vi.fn());
vi.mock('./http', () => ({ post }));

import { postDict } from './dict';

describe('dictionary answers (SPEC 3.16: CODE/code/dictValue, dictLabel/FLAG/flag/mark/MARK)', () => {
  it('reads every spelling of key and label as { code, label }, keeping the other fields', async () => {
    post.mockResolvedValue([
      { code: 'A', label: '甲' },
      { CODE: 'B', FLAG: '乙' },
      { dictValue: 'C', dictLabel: '丙', type: 'state' },
      { code: 'D', flag: '丁' },
      { CODE: 'E', mark: '戊' },
      { dictValue: 'F', MARK: '己' },
      { code: 'G' },
      { label: '无键' },
      null,
    ]);
    expect(await postDict('/ft/api/contract/dict', {})).toEqual([
      { code: 'A', label: '甲' },
      { CODE: 'B', FLAG: '乙', code: 'B', label: '乙' },
      { dictValue: 'C', dictLabel: '丙', type: 'state', code: 'C', label: '丙' },
      { code: 'D', flag: '丁', label: '丁' },
      { CODE: 'E', mark: '戊', code: 'E', label: '戊' },
      { dictValue: 'F', MARK: '己', code: 'F', label: '己' },
      { code: 'G', label: 'G' },
    ]);
    expect(post).toHaveBeenCalledWith('/ft/api/contract/dict', {}, undefined);
  });
});
