import { Form, Input, Select } from 'antd';
import { DOC_STATE_OPTIONS } from './doc-columns';

/**
 * The search fields every list of a contract's documents starts with: 合同号 and 客户名称 (parts
 * of them), and the 审核状态 of the document where the list has one.
 */
export function ContractDocFilters({
  custName = true,
  state = true,
}: {
  custName?: boolean;
  state?: boolean;
}) {
  return (
    <>
      <Form.Item name="contractNo" label="合同号">
        <Input allowClear />
      </Form.Item>
      {custName ? (
        <Form.Item name="custName" label="客户名称">
          <Input allowClear />
        </Form.Item>
      ) : null}
      {state ? (
        <Form.Item name="state" label="审核状态">
          <Select allowClear style={{ width: 120 }} options={DOC_STATE_OPTIONS} />
        </Form.Item>
      ) : null}
    </>
  );
}
