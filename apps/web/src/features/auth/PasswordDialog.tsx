import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, message } from 'antd';
import {
  checkPasswordChange,
  isStrongPassword,
  PASSWORD_MESSAGES,
  type PasswordChange,
} from '@portal/contract/password';
import { useSessionStore } from '../../shared/session/session-store';
import { changePassword } from './api';
import { validValues } from '../../shared/ui/valid-values';

/** The password dialog is 680 wide. */
export const PASSWORD_DIALOG_WIDTH = 680;

export interface PasswordDialogProps {
  open: boolean;
  /** Opened because the account must change its password (first login, reset): no cancel. */
  forced?: boolean;
  onClose(): void;
  /** After success the tokens are cleared; the app closes the tabs and returns to login. */
  onChanged(): void;
  onLogout?(): void;
}

/** Every message of the password change, from '@portal/contract/password'. */
export function PasswordDialog({ open, forced = false, onClose, onChanged, onLogout }: PasswordDialogProps) {
  const [form] = Form.useForm<PasswordChange>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) {
      void message.error(PASSWORD_MESSAGES.formInvalid);
      return;
    }
    const problem = checkPasswordChange(values);
    if (problem) {
      void message.error(problem.message);
      return;
    }
    setSaving(true);
    try {
      const answer = await changePassword(values);
      if (!answer.ok) return;
      void message.success(answer.msg && answer.msg !== '操作成功' ? answer.msg : '密码修改成功，请重新登录');
      form.resetFields();
      useSessionStore.getState().resetSession();
      onChanged();
    } catch {
      // shown by the request layer (warning of msg, or msg as error without a status)
    } finally {
      setSaving(false);
    }
  };

  const footer = [
    forced && onLogout ? (
      <Button key="logout" onClick={onLogout}>
        退出登录
      </Button>
    ) : null,
    forced ? null : (
      <Button key="cancel" onClick={onClose}>
        取消
      </Button>
    ),
    <Button key="ok" type="primary" loading={saving} onClick={() => void submit()}>
      确定
    </Button>,
  ];

  return (
    <Modal
      title="修改密码"
      open={open}
      width={PASSWORD_DIALOG_WIDTH}
      onCancel={forced ? undefined : onClose}
      closable={!forced}
      mask={{ closable: false }}
      destroyOnHidden
      footer={footer}
      className="password-dialog"
    >
      {forced ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="为了账号安全，请先修改初始密码。"
        />
      ) : null}
      <Form<PasswordChange>
        form={form}
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 17 }}
        autoComplete="off"
        preserve={false}
      >
        <Form.Item
          label="旧密码"
          name="pwd"
          rules={[{ required: true, message: PASSWORD_MESSAGES.oldRequired }]}
        >
          <Input.Password placeholder="请输入旧密码" autoComplete="current-password" aria-label="旧密码" />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="newPwd"
          dependencies={['pwd']}
          extra="10到16位，须包含数字、大小写字母和特殊符号(!@#$%^&*_)"
          rules={[
            { required: true, message: PASSWORD_MESSAGES.newRequiredField },
            ({ getFieldValue }) => ({
              validator(_, value: string | undefined) {
                if (!value) return Promise.resolve();
                if (!isStrongPassword(value)) return Promise.reject(new Error(PASSWORD_MESSAGES.pattern));
                if (value === getFieldValue('pwd'))
                  return Promise.reject(new Error(PASSWORD_MESSAGES.sameAsOld));
                return Promise.resolve();
              },
            }),
          ]}
        >
          <Input.Password placeholder="请输入新密码" autoComplete="new-password" aria-label="新密码" />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="reNewPwd"
          dependencies={['newPwd']}
          required
          rules={[
            ({ getFieldValue }) => ({
              validator(_, value: string | undefined) {
                if (!value) return Promise.reject(new Error(PASSWORD_MESSAGES.confirmRequired));
                const newPwd = getFieldValue('newPwd') as string | undefined;
                if (!newPwd) return Promise.reject(new Error(PASSWORD_MESSAGES.newRequired));
                if (value !== newPwd) return Promise.reject(new Error(PASSWORD_MESSAGES.mismatch));
                return Promise.resolve();
              },
            }),
          ]}
        >
          <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" aria-label="确认密码" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
