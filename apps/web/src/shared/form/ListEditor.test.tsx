import '../../test/jsdom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { receivableItemSchema } from '@portal/contract/credit';
import { validValues } from '../ui/valid-values';
import { DateInput } from './DateInput';
import { ListEditor } from './ListEditor';
import { MoneyInput } from './MoneyInput';
import { fieldRules } from './zod-rule';

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
});
