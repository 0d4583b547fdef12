import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { receivableItemSchema } from '@portal/contract/credit';
import { validValues } from '../ui/valid-values';
import { DateInput } from './DateInput';
import { ListEditor } from './ListEditor';
import { MoneyInput } from './MoneyInput';
import { infoSaveSchema } from '@portal/contract/contract';
import { fieldRules, listRule } from './zod-rule';

afterEach(cleanup);

const rules = fieldRules(receivableItemSchema);

describe('ListEditor', () => {
  it('names its columns in a header row, marks required ones, and checks each row by the item schema', async () => {
    const save = vi.fn();
    function Probe() {
      const [form] = Form.useForm();
      return (
        <Form form={form} initialValues={{ items: [{}] }}>
          <ListEditor
            name="items"
            testId="rec"
            addText="添加应收账款"
            removeLabel="删除应收账款"
            columns={[
              {
                name: 'debtorName',
                title: '债务人名称',
                rules: rules.debtorName,
                input: <Input aria-label="债务人名称" />,
              },
              {
                name: 'amount',
                title: '发票金额',
                rules: rules.amount,
                input: <MoneyInput aria-label="发票金额" />,
              },
              {
                name: 'dueDate',
                title: '到期日',
                rules: rules.dueDate,
                input: <DateInput aria-label="到期日" />,
              },
              { name: 'remark', title: '备注', rules: rules.remark, input: <Input aria-label="备注" /> },
            ]}
            extra={<Button onClick={() => void validValues(form).then((v) => v && save(v))}>保存</Button>}
          />
        </Form>
      );
    }
    render(<Probe />);
    const headers = within(screen.getByTestId('rec')).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['*债务人名称', '*发票金额', '*到期日', '备注', '']);
    fireEvent.change(screen.getByLabelText('发票金额'), { target: { value: '12.345' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('发票金额必须是最多两位小数的金额')).toBeTruthy();
    expect(screen.getByText('债务人名称不能为空')).toBeTruthy();
    expect(screen.getByText('应收账款到期日不能为空')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /添加应收账款/ }));
    expect(screen.getAllByLabelText('发票金额')).toHaveLength(2);
    fireEvent.click(screen.getAllByLabelText('删除应收账款')[1]!);
    await waitFor(() => expect(screen.getAllByLabelText('发票金额')).toHaveLength(1));
    expect(save).not.toHaveBeenCalled();
  });

  it('checks the list itself before anything is sent: an empty 应收账款 list says so under it', async () => {
    const save = vi.fn();
    function Probe() {
      const [form] = Form.useForm();
      return (
        <Form form={form} initialValues={{ receivables: [] }}>
          <ListEditor
            name="receivables"
            rules={[listRule(infoSaveSchema.shape.receivables)]}
            addText="添加应收账款"
            removeLabel="删除应收账款"
            columns={[{ name: 'debtorName', title: '债务人名称', input: <Input aria-label="债务人名称" /> }]}
            extra={<Button onClick={() => void validValues(form).then((v) => v && save(v))}>保存</Button>}
          />
        </Form>
      );
    }
    render(<Probe />);
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('应收账款不能为空')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /添加应收账款/ }));
    fireEvent.change(screen.getByLabelText('债务人名称'), { target: { value: '华东建工' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(screen.queryByText('应收账款不能为空')).toBeNull();
  });

  it('fits each input to its column: a money or date input never runs under the next column', () => {
    render(
      <Form initialValues={{ items: [{}] }}>
        <ListEditor
          name="items"
          testId="rec"
          addText="添加应收账款"
          removeLabel="删除应收账款"
          columns={[
            {
              name: 'invoiceDate',
              title: '开票日期',
              width: 140,
              input: <DateInput aria-label="开票日期" />,
            },
            { name: 'amount', title: '发票金额', width: 150, input: <MoneyInput aria-label="发票金额" /> },
            { name: 'debtorName', title: '债务人名称', width: 180, input: <Input aria-label="债务人名称" /> },
          ]}
        />
      </Form>,
    );
    // The widths the inputs bring for single forms (200 and 160 px) are wider than these columns.
    const box = (label: string) =>
      screen.getByLabelText(label).closest<HTMLElement>('.ant-input-number, .ant-picker, .ant-input')!;
    for (const label of ['开票日期', '发票金额', '债务人名称'])
      expect(box(label).style.width, label).toBe('100%');
  });
});
