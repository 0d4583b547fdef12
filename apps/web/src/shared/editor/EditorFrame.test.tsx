import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { renderScreen } from '../../test/render-screen';
import { EditorFrame } from './EditorFrame';
import { FillSection } from './fill-gate';
import { SaveButtons } from './SaveButtons';
import { useFormFill } from './use-form-fill';

/** A read answered when the test says so. */
function held<T>() {
  let answer: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (answer = resolve));
  return { read: () => promise, answer: (value: T) => act(async () => answer(value)) };
}

const URL = '/factoring/probe/editor?bizCode=000000000001';

/** An editor whose form is filled from a read, as every editor of a stored record. */
function Probe(props: { read: () => Promise<{ name: string }>; explicit?: boolean; loading?: boolean }) {
  const [form] = Form.useForm<{ name?: string }>();
  const [other] = Form.useForm<{ note?: string }>();
  const record = useQuery({ queryKey: ['probe'], queryFn: props.read });
  useFormFill(record, (r) => form.setFieldsValue({ name: r.name }));
  return (
    <EditorFrame
      testId="probe-editor"
      title="探针编辑"
      backTo="/factoring/probe"
      loading={props.loading}
      actions={<SaveButtons save={() => Promise.resolve()} disabled={false} />}
    >
      <Form form={form}>
        <Form.Item name="name" label="名称">
          <Input aria-label="名称" />
        </Form.Item>
        <Button>添加</Button>
      </Form>
      {/* A form that enables itself (an editable document): antd lets it win over the context. */}
      <Form form={other} disabled={false}>
        <Form.Item name="note" label="说明">
          <Input aria-label="说明" disabled={false} />
        </Form.Item>
        <Button disabled={false}>导入</Button>
      </Form>
    </EditorFrame>
  );
}

const closed = (name: string | RegExp, role: 'textbox' | 'button' = 'button') =>
  screen.getByRole(role, { name }).matches(':disabled');

afterEach(cleanup);

describe('the editor frame while the record that fills its form is on its way', () => {
  it('takes no input anywhere in it (forms that enable themselves too), then the record, filled', async () => {
    const { read, answer } = held<{ name: string }>();
    renderScreen(<Probe read={read} />, URL);
    const name = screen.getByRole('textbox', { name: '名称' }) as HTMLInputElement;
    // antd's own disabled state, through the frame's context …
    expect(name.disabled).toBe(true);
    expect((screen.getByRole('button', { name: /添\s*加/ }) as HTMLButtonElement).disabled).toBe(true);
    // … and the native one where a form or an input says disabled={false}.
    expect(closed('说明', 'textbox')).toBe(true);
    expect(closed(/导\s*入/)).toBe(true);
    // The actions wait too; 返回 does not.
    expect(closed(/^保\s*存$/)).toBe(true);
    expect(closed('保存并提交')).toBe(true);
    expect(closed(/返\s*回/)).toBe(false);
    await waitFor(() =>
      expect(screen.getByTestId('probe-editor').querySelector('.ant-spin-spinning')).not.toBeNull(),
    );

    await answer({ name: '已保存的名称' });
    await waitFor(() => expect(name.disabled).toBe(false));
    expect(name.value).toBe('已保存的名称');
    for (const b of [/添\s*加/, /导\s*入/, /^保\s*存$/, '保存并提交']) expect(closed(b)).toBe(false);
    expect(closed('说明', 'textbox')).toBe(false);
    await waitFor(() =>
      expect(screen.getByTestId('probe-editor').querySelector('.ant-spin-spinning')).toBeNull(),
    );
  });

  it('takes no input while `loading` (a record that reaches the form otherwise)', async () => {
    let load: (loading: boolean) => void = () => undefined;
    function Loading() {
      const [loading, setLoading] = useState(true);
      load = setLoading;
      return <Probe read={() => Promise.resolve({ name: '甲' })} loading={loading} />;
    }
    renderScreen(<Loading />, URL);
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: '名称' }) as HTMLInputElement).value).toBe('甲'),
    );
    expect(closed('名称', 'textbox')).toBe(true);
    expect(closed(/导\s*入/)).toBe(true);
    act(() => load(false));
    await waitFor(() => expect(closed('名称', 'textbox')).toBe(false));
    expect(closed(/导\s*入/)).toBe(false);
  });
});

/** A section that reads its own part (a tab's list), inside an editor already there. */
function Part({ read }: { read: () => Promise<{ name: string }> }) {
  const [form] = Form.useForm<{ part?: string }>();
  const part = useQuery({ queryKey: ['part'], queryFn: read });
  useFormFill(part, (r) => form.setFieldsValue({ part: r.name }));
  return (
    <Form form={form}>
      <Form.Item name="part" label="分部">
        <Input aria-label="分部" />
      </Form.Item>
    </Form>
  );
}

describe('a section of an editor that loads on its own', () => {
  it('takes no input until its part has arrived, while the rest of the editor does', async () => {
    const { read, answer } = held<{ name: string }>();
    renderScreen(
      <EditorFrame testId="probe-editor" title="探针编辑" backTo="/factoring/probe">
        <Input aria-label="页面" />
        <FillSection>
          <Part read={read} />
        </FillSection>
      </EditorFrame>,
      URL,
    );
    const part = screen.getByRole('textbox', { name: '分部' }) as HTMLInputElement;
    expect(part.disabled).toBe(true);
    expect(closed('页面', 'textbox')).toBe(false);
    await answer({ name: '乙' });
    await waitFor(() => expect(part.disabled).toBe(false));
    expect(part.value).toBe('乙');
  });
});
