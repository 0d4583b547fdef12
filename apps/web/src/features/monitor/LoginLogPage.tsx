import { useState } from 'react';
import { Button, DatePicker, Form, Input, Modal, Select, Tag, type TableColumnsType } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import { button } from '@portal/contract/menus';
import {
  LOGIN_OUTCOME_LABELS,
  LOGIN_LOG_EXPORT_FILE_NAME,
  LOGIN_OUTCOMES,
  MONITOR_MENUS,
  MONITOR_PATHS,
  type LoginLogView,
  type LoginUnlock,
  loginUnlockSchema,
} from '@portal/contract/monitor';
import { zodRule } from '../../shared/form/zod-rule';
import { ListPage } from '../../shared/list/ListPage';
import { dateColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import type { ScreenProps } from '../../shared/ui/screen';
import { dateRangeFilters, unlockLogin } from './api';
import { ListExportButton } from '../../shared/list/ExportButton';

const MENU = MONITOR_MENUS.loginLog;
const OUTCOME_OPTIONS = LOGIN_OUTCOMES.map((value) => ({ value, label: LOGIN_OUTCOME_LABELS[value] }));

/** 解锁 asks for the reason, which is kept in the audit row. */
function UnlockModal({ userName, onClose }: { userName: string; onClose(): void }) {
  const [form] = Form.useForm<LoginUnlock>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: LoginUnlock) => {
    setSaving(true);
    try {
      const r = await unlockLogin({ userName, reason: v.reason });
      if (r.ok) onClose();
    } catch {
      // warned by the request layer
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`解锁用户名「${userName}」`}
      okText="解锁"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<LoginUnlock> form={form} layout="vertical" onFinish={(v) => void submit(v)}>
        <Form.Item name="reason" label="解锁原因" rules={[zodRule(loginUnlockSchema.shape.reason)]}>
          <Input.TextArea maxLength={200} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 登录日志: every sign-in attempt; a locked name shows until when and can be unlocked. */
export default function LoginLogPage(_props: ScreenProps) {
  const [unlocking, setUnlocking] = useState<string>();
  const columns: TableColumnsType<LoginLogView> = [
    dateColumn('登录时间', 'at', { withTime: true, width: 170 }),
    { title: '用户名', dataIndex: 'userName', key: 'userName' },
    {
      title: '登录结果',
      key: 'outcome',
      render: (_: unknown, r) => (
        <Tag color={r.outcome === 'success' ? 'green' : 'red'}>{LOGIN_OUTCOME_LABELS[r.outcome]}</Tag>
      ),
    },
    { title: 'IP地址', dataIndex: 'ip', key: 'ip' },
    { title: '浏览器', dataIndex: 'userAgent', key: 'userAgent', ellipsis: true },
    {
      title: '锁定至',
      key: 'lockedUntil',
      render: (_: unknown, r) => (r.lockedUntil ? formatDateTime(r.lockedUntil) : ''),
    },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_: unknown, r) =>
        r.lockedUntil ? (
          <Auth code={button(MENU, 'unlock')}>
            <Button type="link" size="small" onClick={() => setUnlocking(r.userName)}>
              解锁
            </Button>
          </Auth>
        ) : null,
    },
  ];
  return (
    <>
      <ListPage<LoginLogView>
        source={MONITOR_PATHS.loginLogList}
        rowKey="id"
        columns={columns}
        toFilters={dateRangeFilters}
        toolbar={
          <ListExportButton
            menu={MENU}
            path={MONITOR_PATHS.loginLogExport}
            fileName={LOGIN_LOG_EXPORT_FILE_NAME}
          />
        }
        filters={
          <>
            <Form.Item name="userName" label="用户名">
              <Input allowClear maxLength={64} />
            </Form.Item>
            <Form.Item name="ip" label="IP地址">
              <Input allowClear maxLength={64} />
            </Form.Item>
            <Form.Item name="outcome" label="登录结果">
              <Select allowClear placeholder="全部" style={{ width: 120 }} options={OUTCOME_OPTIONS} />
            </Form.Item>
            <Form.Item name="at" label="登录日期">
              <DatePicker.RangePicker />
            </Form.Item>
          </>
        }
      />
      {unlocking ? <UnlockModal userName={unlocking} onClose={() => setUnlocking(undefined)} /> : null}
    </>
  );
}
