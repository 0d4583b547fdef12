import type { ReactNode } from 'react';
import { Button, Space } from 'antd';

/**
 * 保存 and 保存并提交 of a document editor: `save(submit)`, which validates before any confirmation.
 * `disabled` while there is nothing to save (not while input is wrong: 保存 then says what is);
 * `loading` while a save runs; `children` after them (another step's button).
 */
export function SaveButtons(props: {
  save: (submit: boolean) => Promise<void>;
  disabled?: boolean;
  loading?: boolean;
  children?: ReactNode;
}) {
  return (
    <Space>
      <Button
        type="primary"
        disabled={props.disabled}
        loading={props.loading}
        onClick={() => void props.save(false)}
      >
        保存
      </Button>
      <Button disabled={props.disabled} loading={props.loading} onClick={() => void props.save(true)}>
        保存并提交
      </Button>
      {props.children}
    </Space>
  );
}
