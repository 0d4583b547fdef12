import { describe, expect, it, vi } from 'vitest';
import type { FormInstance } from 'antd';
import { validFields, validValues } from './valid-values';

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

  it('validFields checks the named fields only, out of date or in error alike', async () => {
    const form = formWith(
      () => Promise.reject({ errorFields: [], outOfDate: true, values: {} }),
      () => Promise.resolve({ a: '1.00' }),
    );
    expect(await validFields(form, ['a'])).toEqual({ a: '1.00' });
    expect(form.validateFields).toHaveBeenNthCalledWith(1, ['a']);
    expect(form.validateFields).toHaveBeenNthCalledWith(2, ['a']);
    const bad = formWith(() => Promise.reject({ errorFields: [{ name: ['a'], errors: ['x'] }] }));
    expect(await validFields(bad, ['a'])).toBeUndefined();
  });
});
