import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { incomeItemSchema } from '@portal/contract/accounts';
import { changeSaveSchema } from '@portal/contract/credit';
import { validValues } from '../ui/valid-values';
import { fieldRules, formRules, zodRule } from './zod-rule';

afterEach(cleanup);

const amount = incomeItemSchema.shape.amount;

async function check(value: unknown): Promise<string | undefined> {
  const rule = zodRule(amount);
  if (typeof rule === 'function' || !rule.validator) throw new Error('no validator');
  try {
    await rule.validator({}, value, () => undefined);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('zodRule: the contract schema checks the form field', () => {
  it('answers with the schema’s own messages', async () => {
    expect(await check('12.345')).toBe('来款金额必须是最多两位小数的金额');
    expect(await check('0')).toBe('来款金额必须大于0');
    expect(await check('-5')).toBe('来款金额必须大于0');
    expect(await check(undefined)).toBe('来款金额不能为空');
    expect(await check('')).toBe('来款金额不能为空');
    expect(await check(null)).toBe('来款金额不能为空');
    expect(await check('500000.00')).toBeUndefined();
  });

  it('marks required fields only, and lets an empty optional field pass', async () => {
    const rules = fieldRules(incomeItemSchema);
    const first = (r: (typeof rules)['amount']) => r[0] as { required?: boolean };
    expect(first(rules.amount).required).toBe(true);
    expect(first(rules.remark).required).toBe(false);
    expect(first(rules.payerAccount).required).toBe(false);
  });

  it('stops a form before its confirmation: 12.345, 0, −5 and empty never reach the save', async () => {
    const save = vi.fn();
    function Probe() {
      const [form] = Form.useForm<{ amount?: string }>();
      return (
        <Form form={form}>
          <Form.Item name="amount" label="来款金额" rules={[zodRule(amount)]}>
            <Input />
          </Form.Item>
          <Button
            onClick={() =>
              void validValues(form).then((v) => {
                if (v) save(v);
              })
            }
          >
            保存
          </Button>
        </Form>
      );
    }
    render(<Probe />);
    const input = screen.getByLabelText('来款金额');
    const cases: [string, string][] = [
      ['12.345', '来款金额必须是最多两位小数的金额'],
      ['0', '来款金额必须大于0'],
      ['-5', '来款金额必须大于0'],
      ['', '来款金额不能为空'],
    ];
    for (const [value, message] of cases) {
      fireEvent.change(input, { target: { value } });
      fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(save).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '12.34' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ amount: '12.34' }));
  });
});

describe('formRules: the object schema’s checks about a field', () => {
  it('shows 变更后额度不能为空 for 提额 once the rest is valid, and no duplicate of the field’s own message', async () => {
    const rules = formRules(changeSaveSchema);
    const save = vi.fn();
    function Probe() {
      const [form] = Form.useForm();
      return (
        <Form
          form={form}
          initialValues={{ credBizCode: '000000000001', changeType: 'raise', reason: '扩大' }}
        >
          <Form.Item name="newLimit" label="变更后额度" rules={rules.newLimit}>
            <Input />
          </Form.Item>
          <Button onClick={() => void validValues(form).then((v) => v && save(v))}>保存</Button>
        </Form>
      );
    }
    render(<Probe />);
    const click = () => fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    click();
    expect(await screen.findByText('变更后额度不能为空')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('变更后额度'), { target: { value: '-1' } });
    click();
    expect(await screen.findByText('变更后额度必须大于0')).toBeTruthy();
    expect(screen.getAllByText(/变更后额度/).filter((e) => e.closest('.ant-form-item-explain'))).toHaveLength(
      1,
    );
    fireEvent.change(screen.getByLabelText('变更后额度'), { target: { value: '100.00' } });
    click();
    await waitFor(() => expect(save).toHaveBeenCalled());
  });
});
