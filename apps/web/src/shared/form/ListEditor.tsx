import { cloneElement, isValidElement, type CSSProperties, type ReactNode } from 'react';
import { Button, Form, type FormRule } from 'antd';
import type { ListRule } from './zod-rule';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';

export interface ListEditorColumn {
  /** The row field's name. */
  name: string;
  /** The column header. */
  title: string;
  width?: number;
  /** The field's rules, usually `fieldRules(itemSchema)[name]`. */
  rules?: FormRule[];
  /** The cell's input; give it an `aria-label` (the header does not label it). */
  input?: ReactNode;
  /** Instead of `input`: the whole cell of row `index` (a cell whose field depends on the row). */
  cell?: (index: number) => ReactNode;
}

const DEFAULT_WIDTH = 160;
const GAP = 8;

/**
 * The cell's input fills its column: inputs carry widths of their own for single forms (a money
 * input 200 px, a date 160 px), which in a narrower column ran under the next one (发票金额 under
 * 债务人名称 at 1280 px).
 */
function fillCell(input: ReactNode): ReactNode {
  if (!isValidElement<{ style?: CSSProperties }>(input)) return input;
  return cloneElement(input, { style: { ...input.props.style, width: '100%' } });
}

function isRequired(rules: FormRule[] | undefined): boolean {
  return (rules ?? []).some((r) => typeof r === 'object' && r.required === true);
}

/**
 * A list of rows edited in a form (担保, 保理授信, 应收账款, 付款方): one `Form.List` under a header
 * row that names each column, a remove button per row and an add button. Every cell keeps its own
 * accessible label (the input's `aria-label`), so a row's fields read the same as a single form's.
 */
export function ListEditor(props: {
  name: string;
  columns: ListEditorColumn[];
  addText: string;
  removeLabel: string;
  testId?: string;
  /** After the add button (a section's 保存). */
  extra?: ReactNode;
  /** The values of a new row. */
  newRow?: Record<string, unknown>;
  /** The list's own rules (`listRule(schema)`: 不能为空, at most N), shown under it. */
  rules?: ListRule[];
}) {
  const { columns } = props;
  return (
    <Form.List name={props.name} rules={props.rules}>
      {(fields, { add, remove }, { errors }) => (
        <div data-testid={props.testId} role="table">
          <div role="row" style={{ display: 'flex', gap: GAP, marginBottom: 4, fontWeight: 500 }}>
            {columns.map((c) => (
              <div key={c.name} role="columnheader" style={{ width: c.width ?? DEFAULT_WIDTH, flex: 'none' }}>
                {isRequired(c.rules) ? <span style={{ color: '#ff4d4f', marginRight: 4 }}>*</span> : null}
                {c.title}
              </div>
            ))}
            <div role="columnheader" style={{ width: 24, flex: 'none' }} aria-label="操作" />
          </div>
          {fields.map((f) => (
            <div key={f.key} role="row" style={{ display: 'flex', gap: GAP, alignItems: 'baseline' }}>
              {columns.map((c) => (
                <div key={c.name} role="cell" style={{ width: c.width ?? DEFAULT_WIDTH, flex: 'none' }}>
                  {c.cell ? (
                    c.cell(f.name)
                  ) : (
                    <Form.Item name={[f.name, c.name]} rules={c.rules} style={{ marginBottom: 8 }}>
                      {fillCell(c.input)}
                    </Form.Item>
                  )}
                </div>
              ))}
              <div role="cell" style={{ width: 24, flex: 'none' }}>
                <MinusCircleOutlined aria-label={props.removeLabel} onClick={() => remove(f.name)} />
              </div>
            </div>
          ))}
          <div style={{ display: 'flex', gap: GAP }}>
            <Button icon={<PlusOutlined />} onClick={() => add(props.newRow)}>
              {props.addText}
            </Button>
            {props.extra}
          </div>
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
}
