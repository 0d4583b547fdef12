import { CloseOutlined } from '@ant-design/icons';
import { message, Modal, notification } from 'antd';
import { TOAST_SECONDS } from './toast';

/**
 * A closable warning toast whose line breaks are kept (`white-space: pre-line`).
 * antd's message has no close button of its own, so the content carries one. The same text
 * shown again replaces its toast: several calls refused for one reason (a first login's
 * 请先修改初始密码) say it once.
 */
export function showClosableWarning(text: string, seconds = TOAST_SECONDS): void {
  const key = `portal-warning-${text}`;
  void message.open({
    key,
    type: 'warning',
    duration: seconds,
    content: (
      <span className="portal-toast" data-testid="toast-warning">
        <span style={{ whiteSpace: 'pre-line' }}>{text}</span>
        <CloseOutlined
          aria-label="关闭"
          role="button"
          className="portal-toast__close"
          style={{ marginLeft: 12, cursor: 'pointer', fontSize: 12 }}
          onClick={() => message.destroy(key)}
        />
      </span>
    ),
  });
}

export function showSuccess(text: string, seconds = TOAST_SECONDS): void {
  void message.success(text, seconds);
}

export function showWarning(text: string, seconds = TOAST_SECONDS): void {
  void message.warning(text, seconds);
}

export function showError(text: string, seconds = TOAST_SECONDS): void {
  void message.error({ content: <span style={{ whiteSpace: 'pre-line' }}>{text}</span>, duration: seconds });
}

/** A notification (top right) with a title only, e.g. 权限为空！ */
export function notifyError(title: string, seconds: number): void {
  notification.error({ title, duration: seconds });
}

export interface ConfirmOptions {
  title?: string;
  content: string;
  okText?: string;
  cancelText?: string;
}

/** A yes/no prompt (antd Modal.confirm); resolves true when confirmed, false when cancelled. */
export function confirmAction(opts: ConfirmOptions | string): Promise<boolean> {
  const o: ConfirmOptions = typeof opts === 'string' ? { content: opts } : opts;
  return new Promise((resolve) => {
    Modal.confirm({
      title: o.title ?? '提示',
      content: o.content,
      okText: o.okText ?? '确定',
      cancelText: o.cancelText ?? '取消',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
