import type { ReactNode } from 'react';
import { Form, Input, Select } from 'antd';
import { DOC_STATE_OPTIONS } from '../../shared/workflow/doc-columns';

/**
 * The search fields every list of credit documents (授信, 额度分配, 额度变更) starts with: 客户名称
 * (part of it) and the document's 状态; a list's own fields follow.
 */
export function CreditDocFilters({ children }: { children?: ReactNode }) {
  return (
    <>
      <Form.Item name="custName" label="客户名称">
        <Input allowClear />
      </Form.Item>
      <Form.Item name="state" label="状态">
        <Select allowClear style={{ width: 120 }} options={DOC_STATE_OPTIONS} />
      </Form.Item>
      {children}
    </>
  );
}
