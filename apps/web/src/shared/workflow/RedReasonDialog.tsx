import { useEffect, useState } from 'react';
import { Input, Modal } from 'antd';

/**
 * 冲红 of an approved document asks for its reason first (回购单, 核销坏账): `rushRed` posts it and
 * answers whether it went through; the dialog closes with `done` then.
 */
export function RedReasonDialog({
  title,
  code,
  rushRed,
  onClose,
}: {
  title: string;
  code: string | null;
  rushRed: (code: string, reason: string) => Promise<{ ok: boolean }>;
  onClose: (done: boolean) => void;
}) {
  const [reason, setReason] = useState('');
  useEffect(() => setReason(''), [code]);
  return (
    <Modal
      title={`${title} ${code ?? ''}`}
      open={code !== null}
      okText="冲红"
      okButtonProps={{ danger: true, disabled: !reason.trim() }}
      onCancel={() => onClose(false)}
      onOk={() =>
        void rushRed(code!, reason.trim())
          .then((res) => res.ok && onClose(true))
          .catch(() => undefined)
      }
    >
      <Input.TextArea
        aria-label="冲红原因"
        placeholder="冲红原因"
        rows={3}
        maxLength={200}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
    </Modal>
  );
}
