import { describe, expect, it, vi } from 'vitest';
import type { FormInstance } from 'antd';
import { validValues } from './valid-values';

function formWith(...answers: (() => Promise<unknown>)[]): FormInstance<{ a?: string }> {
  const validateFields = vi.fn();
  for (const a of answers) validateFields.mockImplementationOnce(a);
  return { validateFields } as unknown as FormInstance<{ a?: string }>;
}

describe('validValues', () => {
  it('validates again when a field changed during the validation (antd: out of date)', async () => {
    const form = formWith(
      () => Promise.reject({ errorFields: [], outOfDate: true, values: {} }),
      () => Promise.resolve({ a: '2099-12-31' }),
    );
    expect(await validValues(form)).toEqual({ a: '2099-12-31' });
    expect(form.validateFields).toHaveBeenCalledTimes(2);
  });

  it('answers undefined for fields in error, and rethrows anything else', async () => {
    const bad = formWith(() =>
      Promise.reject({ errorFields: [{ name: ['a'], errors: ['x'] }], outOfDate: false }),
    );
    expect(await validValues(bad)).toBeUndefined();
    const broken = formWith(() => Promise.reject(new Error('boom')));
    await expect(validValues(broken)).rejects.toThrow('boom');
  });
});
