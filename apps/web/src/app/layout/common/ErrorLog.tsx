import { useState } from 'react';
import { Badge, Button, Modal, Table, Tooltip } from 'antd';
import { BugOutlined } from '@ant-design/icons';
import {
  clearErrorLogs,
  useErrorLogStore,
  type ErrorLogEntry,
} from '../../../shared/error-log/error-log-store';

/** The production error log in the navbar, with a dialog that clears it all. */
export function ErrorLog() {
  const logs = useErrorLogStore((s) => s.logs);
  const [open, setOpen] = useState(false);
  if (logs.length === 0) return null;
  return (
    <>
      <Tooltip title="错误日志">
        <Badge count={logs.length} size="small" offset={[-2, 4]}>
          <BugOutlined
            className="navbar-icon navbar-icon--danger"
            role="button"
            aria-label="错误日志"
            onClick={() => setOpen(true)}
          />
        </Badge>
      </Tooltip>
      <Modal
        title={
          <span>
            错误日志
            <Button
              danger
              size="small"
              style={{ marginLeft: 16 }}
              onClick={() => {
                clearErrorLogs();
                setOpen(false);
              }}
            >
              清空全部
            </Button>
          </span>
        }
        open={open}
        width="80%"
        footer={null}
        onCancel={() => setOpen(false)}
      >
        <Table<ErrorLogEntry>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={logs}
          columns={[
            { title: '信息', dataIndex: 'message', key: 'message', width: 260 },
            { title: '来源', dataIndex: 'info', key: 'info', width: 140 },
            { title: '页面', dataIndex: 'url', key: 'url', width: 240, ellipsis: true },
            {
              title: '堆栈',
              dataIndex: 'stack',
              key: 'stack',
              render: (s: string) => <pre className="error-log__stack">{s}</pre>,
            },
          ]}
        />
      </Modal>
    </>
  );
}
