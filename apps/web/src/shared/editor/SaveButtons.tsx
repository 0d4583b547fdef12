import { Button, Space } from 'antd';

/**
 * 保存 and 保存并提交 of a document editor: `save(submit)`, which validates before any confirmation.
 * `disabled` while there is nothing to save (not while input is wrong: 保存 then says what is).
 */
export function SaveButtons(props: { save: (submit: boolean) => Promise<void>; disabled?: boolean }) {
  return (
    <Space>
      <Button type="primary" disabled={props.disabled} onClick={() => void props.save(false)}>
        保存
      </Button>
      <Button disabled={props.disabled} onClick={() => void props.save(true)}>
        保存并提交
      </Button>
    </Space>
  );
}
