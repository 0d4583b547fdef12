import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button, Space, Tag } from 'antd';
import { COMPONENT_LABELS, type Component } from '@portal/contract/plan/rule';

export interface OrderListProps {
  value?: Component[];
  onChange?: (value: Component[]) => void;
  disabled?: boolean;
  /** For the accessible names of the move buttons (还款分配顺序 …). */
  label: string;
  'data-testid'?: string;
}

/**
 * A reorderable list of 罚息/利息/费用/本金 (an antd Form control: value/onChange). Moving is by
 * buttons rather than dragging: keyboard-friendly, and a permutation by construction.
 */
export function OrderList({ value = [], onChange, disabled, label, 'data-testid': testId }: OrderListProps) {
  const move = (from: number, to: number) => {
    if (to < 0 || to >= value.length) return;
    const next = [...value];
    const [item] = next.splice(from, 1);
    if (item === undefined) return;
    next.splice(to, 0, item);
    onChange?.(next);
  };
  return (
    <ol
      className="ruler-order"
      data-testid={testId}
      aria-label={label}
      style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 8 }}
    >
      {value.map((c, i) => (
        <li
          key={c}
          className="ruler-order__item"
          data-component={c}
          style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: '2px 4px' }}
        >
          <Space size={4}>
            <Tag className="ruler-order__index">{i + 1}</Tag>
            <span className="ruler-order__label">{COMPONENT_LABELS[c]}</span>
            <Button
              size="small"
              type="text"
              icon={<ArrowUpOutlined />}
              aria-label={`${label}：${COMPONENT_LABELS[c]}上移`}
              disabled={disabled || i === 0}
              onClick={() => move(i, i - 1)}
            />
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              aria-label={`${label}：${COMPONENT_LABELS[c]}下移`}
              disabled={disabled || i === value.length - 1}
              onClick={() => move(i, i + 1)}
            />
          </Space>
        </li>
      ))}
    </ol>
  );
}
