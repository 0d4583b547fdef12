import type { ReactNode } from 'react';
import { Descriptions, Modal } from 'antd';
import type { TableColumnsType } from 'antd';
import { describeUserAgent } from '../../shared/lib/user-agent';

/** 浏览器 and 操作系统 columns of a row with a user agent (登录日志, 在线用户). */
export function userAgentColumns<T extends { userAgent: string | null }>(): TableColumnsType<T> {
  return [
    { title: '浏览器', key: 'browser', render: (_: unknown, r: T) => describeUserAgent(r.userAgent).browser },
    { title: '操作系统', key: 'os', render: (_: unknown, r: T) => describeUserAgent(r.userAgent).os },
  ];
}

/** 详情 of a sign-in or session: its facts, the browser, system and device, and the raw user agent. */
export function UserAgentDetailModal({
  title,
  facts,
  userAgent,
  onClose,
}: {
  title: string;
  facts: { label: string; value: ReactNode }[];
  userAgent: string | null;
  onClose(): void;
}) {
  const ua = describeUserAgent(userAgent);
  return (
    <Modal open title={title} width={640} footer={null} onCancel={onClose} destroyOnHidden>
      <Descriptions size="small" column={1} bordered>
        {facts.map((f) => (
          <Descriptions.Item key={f.label} label={f.label}>
            {f.value ?? '—'}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label="浏览器">{ua.browser}</Descriptions.Item>
        <Descriptions.Item label="操作系统">{ua.os}</Descriptions.Item>
        <Descriptions.Item label="设备类型">{ua.device}</Descriptions.Item>
        <Descriptions.Item label="浏览器标识">{userAgent ?? '—'}</Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
