import { Form, type FormRule } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { FileList } from './FileList';
import { useUploadGuard } from './upload-guard';

export interface FilesFieldProps {
  name: NamePath;
  /** The field's label; also names the field in the refusal (默认 附件). */
  label?: string;
  extra?: string;
  rules?: FormRule[];
  readOnly?: boolean;
  max?: number;
}

/** A form's attachments: a save validated while a file is uploading fails under this field. */
export function FilesField({ name, label, extra, rules = [], readOnly, max }: FilesFieldProps) {
  const guard = useUploadGuard(label ?? '附件');
  return (
    <Form.Item name={name} label={label} extra={extra} rules={[...rules, guard.rule]}>
      <FileList readOnly={readOnly} max={max} onUploadingChange={guard.onUploadingChange} />
    </Form.Item>
  );
}
