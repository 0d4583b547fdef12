import type { ReactNode } from 'react';
import { Button, Space } from 'antd';

/**
 * 保存 and 保存并提交 of a document editor: `save(submit)`, which validates before any confirmation.
 * Every editor's pair is this one (docs/architecture.md "Editors keep their input"), so the two
 * buttons read, disable and wait alike everywhere.
 * `disabled` while there is nothing to save (not while input is wrong: 保存 then says what is);
 * `loading` while a save runs; `submit: false` where the document cannot go to approval yet (a
 * contract before its first save); `testIds` for browser tests; `children` after them (another
 * step's button).
 */
export function SaveButtons(props: {
  save: (submit: boolean) => Promise<void>;
  disabled?: boolean;
  loading?: boolean;
  submit?: boolean;
  testIds?: { save?: string; submit?: string };
  children?: ReactNode;
}) {
  return (
    <Space>
      <Button
        type="primary"
        disabled={props.disabled}
        loading={props.loading}
        data-testid={props.testIds?.save}
        onClick={() => void props.save(false)}
      >
        保存
      </Button>
      {props.submit === false ? null : (
        <Button
          disabled={props.disabled}
          loading={props.loading}
          data-testid={props.testIds?.submit}
          onClick={() => void props.save(true)}
        >
          保存并提交
        </Button>
      )}
      {props.children}
    </Space>
  );
}
