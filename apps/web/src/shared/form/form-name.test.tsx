import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Form, Input } from 'antd';
import { MemoryRouter } from 'react-router';
import { pageFormName, usePageFormName } from './form-name';

afterEach(cleanup);

/** An unnamed form: its ids are the bare field names. */
function SearchForm() {
  return (
    <Form layout="inline">
      <Form.Item name="contractNo" label="合同号">
        <Input />
      </Form.Item>
    </Form>
  );
}

function EditorForm() {
  return (
    <Form name={usePageFormName('info')}>
      <Form.Item name="contractNo" label="合同号">
        <Input />
      </Form.Item>
      <Form.Item name="remark" label="备注">
        <Input />
      </Form.Item>
    </Form>
  );
}

const ids = () => [...document.querySelectorAll('[id]')].map((e) => e.id);

describe('page form names', () => {
  it('differ between pages and read as an id', () => {
    expect(pageFormName('/factoring/contract/info-editor', 'info')).toBe(
      'factoring-contract-info-editor-info',
    );
    expect(pageFormName('/factoring/contract/info-editor/', 'info')).toBe(
      pageFormName('/factoring/contract/info-editor', 'info'),
    );
    expect(pageFormName('/factoring/contract/change-editor', 'info')).not.toBe(
      pageFormName('/factoring/contract/info-editor', 'info'),
    );
    expect(pageFormName('/', 'x')).toBe('home-x');
  });

  it('give a kept list, its editor and a second editor page distinct ids with their own labels', () => {
    render(
      <>
        <MemoryRouter initialEntries={['/factoring/contract/info']}>
          <SearchForm />
        </MemoryRouter>
        <MemoryRouter initialEntries={['/factoring/contract/info-editor?bizCode=000000000001']}>
          <EditorForm />
        </MemoryRouter>
        <MemoryRouter initialEntries={['/factoring/contract/change-editor']}>
          <EditorForm />
        </MemoryRouter>
      </>,
    );
    const all = ids();
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain('factoring-contract-info-editor-info_contractNo');
    // Each label names its own input.
    for (const label of document.querySelectorAll('label[for]')) {
      const target = document.getElementById(label.getAttribute('for')!);
      expect(target?.tagName).toBe('INPUT');
      expect(label.closest('form')).toBe(target!.closest('form'));
    }
  });

  it('names a form rendered outside a router as on the home page', () => {
    render(<EditorForm />);
    expect(document.getElementById('home-info_contractNo')).toBeTruthy();
  });
});
