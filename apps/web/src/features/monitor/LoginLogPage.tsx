import { useState } from 'react';
import { DatePicker, Form, Input, Modal, Select, Tag, type TableColumnsType } from 'antd';
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
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { dateColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { dateRangeFilters, unlockLogin } from './api';
import { ListExportButton } from '../../shared/list/ExportButton';
import { UserAgentDetailModal, userAgentColumns } from './user-agent-view';

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
  const [detail, setDetail] = useState<LoginLogView>();
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
    ...userAgentColumns<LoginLogView>(),
    {
      title: '锁定至',
      key: 'lockedUntil',
      render: (_: unknown, r) => (r.lockedUntil ? formatDateTime(r.lockedUntil) : ''),
    },
    actionsColumn<LoginLogView>((r) => [
      { label: '详情', onClick: () => setDetail(r) },
      {
        label: '解锁',
        code: button(MENU, 'unlock'),
        hidden: !r.lockedUntil,
        onClick: () => setUnlocking(r.userName),
      },
    ]),
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
      {detail ? (
        <UserAgentDetailModal
          title="登录详情"
          userAgent={detail.userAgent}
          onClose={() => setDetail(undefined)}
          facts={[
            { label: '登录时间', value: formatDateTime(detail.at) },
            { label: '用户名', value: detail.userName },
            { label: '登录结果', value: LOGIN_OUTCOME_LABELS[detail.outcome] },
            { label: 'IP地址', value: detail.ip },
            { label: '锁定至', value: detail.lockedUntil ? formatDateTime(detail.lockedUntil) : null },
          ]}
        />
      ) : null}
      {unlocking ? <UnlockModal userName={unlocking} onClose={() => setUnlocking(undefined)} /> : null}
    </>
  );
}
