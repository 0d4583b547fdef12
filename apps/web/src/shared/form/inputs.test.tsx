import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { platformSaveSchema } from '@portal/contract/credit';
import { validValues } from '../ui/valid-values';
import { formRules } from './zod-rule';
import { DateInput } from './DateInput';
import { MoneyInput, formatMoneyText, parseMoneyText } from './MoneyInput';

afterEach(cleanup);

describe('MoneyInput', () => {
  it('formats with thousands separators and two decimals, keeping extra decimals visible', () => {
    expect(formatMoneyText('500000')).toBe('500,000.00');
    expect(formatMoneyText('1234567.5')).toBe('1,234,567.50');
    expect(formatMoneyText('-5')).toBe('-5.00');
    expect(formatMoneyText('12.345')).toBe('12.345');
    expect(formatMoneyText(undefined)).toBe('');
  });

  it('reads what was typed without rounding: separators out, full-width and U+2212 folded', () => {
    expect(parseMoneyText('1,234,567.89')).toBe('1234567.89');
    expect(parseMoneyText('\u22125')).toBe('-5');
    expect(parseMoneyText('１２.３４５')).toBe('12.345');
  });

  it('gives the form a decimal string, as typed, under its accessible label', () => {
    const onChange = vi.fn();
    render(
      <Form onValuesChange={(_, all: { amount?: string }) => onChange(all.amount)}>
        <Form.Item name="amount" label="来款金额">
          <MoneyInput />
        </Form.Item>
      </Form>,
    );
    const input = screen.getByLabelText('来款金额');
    fireEvent.change(input, { target: { value: '500000.00' } });
    expect(onChange).toHaveBeenLastCalledWith('500000.00');
    fireEvent.blur(input);
    expect((input as HTMLInputElement).value).toBe('500,000.00');
    fireEvent.change(input, { target: { value: '1,234.50' } });
    expect(onChange).toHaveBeenLastCalledWith('1234.50');
    fireEvent.blur(input);
    expect((input as HTMLInputElement).value).toBe('1,234.50');
    fireEvent.change(input, { target: { value: '12.345' } });
    expect(onChange).toHaveBeenLastCalledWith('12.345');
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith('12.345');
    expect((input as HTMLInputElement).value).toBe('12.345');
    fireEvent.change(input, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('shows a form value with separators', () => {
    render(<MoneyInput aria-label="金额" value="1234567.8" />);
    expect((screen.getByLabelText('金额') as HTMLInputElement).value).toBe('1,234,567.80');
  });

  it('keeps a negative amount as typed (the schema refuses it, the input does not clamp it)', () => {
    const onChange = vi.fn();
    render(<MoneyInput aria-label="金额" onChange={onChange} />);
    const input = screen.getByLabelText('金额');
    fireEvent.change(input, { target: { value: '-5' } });
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith('-5');
  });
});

describe('DateInput', () => {
  it('shows a YYYY-MM-DD value', () => {
    render(<DateInput aria-label="来款日期" value="2026-11-26" />);
    expect((screen.getByLabelText('来款日期') as HTMLInputElement).value).toBe('2026-11-26');
  });

  it('commits typed text as a YYYY-MM-DD string in a form when the field loses focus', async () => {
    let values: Record<string, unknown> = {};
    render(
      <Form onValuesChange={(_, all: Record<string, unknown>) => (values = all)}>
        <Form.Item name="valueDate" label="来款日期">
          <DateInput />
        </Form.Item>
      </Form>,
    );
    const input = screen.getByLabelText('来款日期');
    await act(async () => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2026-11-26' } });
    });
    await act(async () => {
      fireEvent.blur(input);
    });
    expect(values['valueDate']).toBe('2026-11-26');
  });

  it('gives the form a complete typed date at once, before the field loses focus', async () => {
    const onChange = vi.fn();
    render(<DateInput aria-label="到期日" onChange={onChange} />);
    const input = screen.getByLabelText('到期日');
    await act(async () => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2099-12-31' } });
    });
    expect(onChange).toHaveBeenLastCalledWith('2099-12-31');
  });

  it('commits typed text on Enter', async () => {
    const onChange = vi.fn();
    render(<DateInput aria-label="日期" onChange={onChange} />);
    const input = screen.getByLabelText('日期');
    await act(async () => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2024-02-29' } });
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    });
    expect(onChange).toHaveBeenLastCalledWith('2024-02-29');
  });
});

describe('a form saved right after a date is typed (the credit editor’s 到期日, then 保存)', () => {
  it('saves with the typed date: no silent no-op while the picker commits', async () => {
    const rules = formRules(platformSaveSchema);
    const save = vi.fn();
    function Probe() {
      const [form] = Form.useForm();
      return (
        <Form form={form} initialValues={{ currency: 'CNY', cycle: 'cyclical', product: 'factoring' }}>
          <Form.Item name="custCode" label="客户" rules={rules.custCode}>
            <Input />
          </Form.Item>
          <Form.Item name="limitAmount" label="授信总额度" rules={rules.limitAmount}>
            <MoneyInput />
          </Form.Item>
          <Form.Item name="startDate" label="起始日" rules={rules.startDate}>
            <DateInput />
          </Form.Item>
          <Form.Item name="endDate" label="到期日" rules={rules.endDate}>
            <DateInput />
          </Form.Item>
          <Button onClick={() => void validValues(form).then((v) => v && save(v))}>保存</Button>
        </Form>
      );
    }
    render(<Probe />);
    fireEvent.change(screen.getByLabelText('客户'), { target: { value: '000000000001' } });
    fireEvent.change(screen.getByLabelText('授信总额度'), { target: { value: '1000000.00' } });
    for (const [label, value] of [
      ['起始日', '2020-01-01'],
      ['到期日', '2099-12-31'],
    ] as const) {
      const input = screen.getByLabelText(label);
      await act(async () => {
        fireEvent.focus(input);
        fireEvent.change(input, { target: { value } });
      });
    }
    const button = screen.getByRole('button', { name: /保\s*存/ });
    await act(async () => {
      fireEvent.mouseDown(button);
      fireEvent.blur(screen.getByLabelText('到期日'));
      fireEvent.click(button);
    });
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]?.[0]).toMatchObject({
      limitAmount: '1000000.00',
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    });
  });
});
