import type { ReactNode } from 'react';
import { Modal } from 'antd';

/** The add / edit dialog of a list: 保存 runs `onSave` (a failed validation keeps it open). */
export function EditModal({
  title,
  open,
  onSave,
  onCancel,
  children,
}: {
  title: ReactNode;
  open: boolean;
  onSave: () => Promise<unknown>;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      open={open}
      onOk={() => void onSave().catch(() => undefined)}
      onCancel={onCancel}
      okText="保存"
      destroyOnHidden
      forceRender
    >
      {children}
    </Modal>
  );
}
