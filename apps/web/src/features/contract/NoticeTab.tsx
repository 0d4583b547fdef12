import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Form, Input, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import {
  ASSIGN_NOTICE_MENU,
  ASSIGN_NOTICE_PATHS,
  ASSIGN_STATE_LABELS,
  NOTICE_STATUS_LABELS,
  noticeConfirmSchema,
  noticeWaiveSchema,
  noticeWithdrawSchema,
  type NoticeStatus,
  type NoticeView,
} from '@portal/contract/assignment';
import type { FileInfo } from '@portal/contract/files';
import { formatMoney } from '@portal/contract/format';
import { useBizDate } from '../../shared/bizdate/api';
import { FileList } from '../../shared/files/FileList';
import { FilesField } from '../../shared/files/FilesField';
import { fieldRules } from '../../shared/form/zod-rule';
import { EditModal } from '../../shared/list/EditModal';
import { useButtons } from '../../shared/permission/use-buttons';
import { PrintButton } from '../../shared/print/PrintButton';
import { update } from '../../shared/request/http';
import { contractKeys, contractQueries } from './api';

/**
 * 转让通知 on the contract view (docs/assignment-notice.md): each debtor of a disclosed (明保理)
 * contract with its notice's status, its print, the debtor's 确认 (date, who, signed copy) and a
 * checker's 豁免 with its reason; until the contract is disbursed either may be withdrawn.
 */
const CONFIRM_RULES = fieldRules(noticeConfirmSchema);
const WAIVE_RULES = fieldRules(noticeWaiveSchema);
const WITHDRAW_RULES = fieldRules(noticeWithdrawSchema);
const STATUS_COLORS: Record<NoticeStatus, string> = { pending: 'orange', confirmed: 'green', waived: 'blue' };

type Acting = { kind: 'confirm' | 'waive' | 'withdraw'; notice: NoticeView } | null;

export function NoticeTab({ contBizCode }: { contBizCode: string }) {
  const qc = useQueryClient();
  const buttons = useButtons(ASSIGN_NOTICE_MENU);
  const [acting, setActing] = useState<Acting>(null);
  const list = useQuery(contractQueries.notices(contBizCode));
  const l = list.data;
  if (!l) return null;
  if (!l.disclosed)
    return (
      <Alert
        type="info"
        showIcon
        message="暗保理：无需向债务人发送应收账款转让通知"
        data-testid="notice-none"
      />
    );
  const done = async () => {
    setActing(null);
    await qc.invalidateQueries({ queryKey: contractKeys.all });
  };
  // 豁免 is a checker's act: the contract's maker is not offered it (the server refuses it too).
  const mayWaive = buttons.has('noticeWaive') && !l.youMadeIt;
  return (
    <>
      <Alert
        type={l.state === 'confirmed' ? 'success' : 'warning'}
        showIcon
        data-testid="notice-state"
        message={ASSIGN_STATE_LABELS[l.state]}
        description={
          l.state === 'pending'
            ? '明保理合同须待每个债务人确认转让通知（或由复核人豁免）后方可放款。'
            : l.loaned
              ? '合同已放款，确认与豁免不能再撤销。'
              : undefined
        }
        style={{ marginBottom: 12 }}
      />
      <Table<NoticeView>
        rowKey="noticeBizCode"
        size="small"
        pagination={false}
        dataSource={l.notices}
        columns={[
          { title: '债务人', dataIndex: 'debtorName' },
          { title: '通知书编号', dataIndex: 'noticeBizCode', width: 130 },
          {
            title: '应收账款',
            key: 'amount',
            align: 'right',
            render: (_: unknown, n) => `${formatMoney(n.amount)}（${n.invoiceCount}张）`,
          },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: NoticeStatus, n) => (
              <Tag color={STATUS_COLORS[s]} data-testid={`notice-status-${n.debtorName}`}>
                {NOTICE_STATUS_LABELS[s]}
              </Tag>
            ),
          },
          {
            title: '确认 / 豁免',
            key: 'detail',
            render: (_: unknown, n) =>
              n.status === 'confirmed' ? (
                <Space direction="vertical" size={0}>
                  <span>
                    {n.confirmDate} {n.confirmedBy}
                    {n.recordedByName ? `（${n.recordedByName}登记）` : ''}
                  </span>
                  <FileList value={n.files} readOnly />
                </Space>
              ) : n.status === 'waived' ? (
                <span>
                  {n.waivedByName}豁免：{n.waiveReason}
                </span>
              ) : (
                '—'
              ),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, n) => (
              <Space wrap>
                <PrintButton docCode={n.noticeBizCode} types={['assignNotice']} />
                {n.status === 'pending' && buttons.has('noticeConfirm') ? (
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => setActing({ kind: 'confirm', notice: n })}
                  >
                    确认
                  </Button>
                ) : null}
                {n.status === 'pending' && mayWaive ? (
                  <Button size="small" onClick={() => setActing({ kind: 'waive', notice: n })}>
                    豁免
                  </Button>
                ) : null}
                {n.status !== 'pending' &&
                !l.loaned &&
                buttons.has(n.status === 'confirmed' ? 'noticeConfirm' : 'noticeWaive') ? (
                  <Button size="small" danger onClick={() => setActing({ kind: 'withdraw', notice: n })}>
                    撤销
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {acting?.kind === 'confirm' ? (
        <ConfirmModal notice={acting.notice} onDone={done} onClose={() => setActing(null)} />
      ) : null}
      {acting?.kind === 'waive' || acting?.kind === 'withdraw' ? (
        <ReasonModal
          kind={acting.kind}
          notice={acting.notice}
          onDone={done}
          onClose={() => setActing(null)}
        />
      ) : null}
    </>
  );
}

interface ConfirmValues {
  confirmDate?: Dayjs;
  confirmedBy?: string;
  files?: FileInfo[];
}

/** 确认: the debtor's confirmation as signed: its date, who signed it, the signed copy. */
function ConfirmModal({
  notice,
  onDone,
  onClose,
}: {
  notice: NoticeView;
  onDone: () => Promise<void>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<ConfirmValues>();
  const today = useBizDate().data?.businessDate;
  const save = async () => {
    const v = await form.validateFields();
    const r = await update(ASSIGN_NOTICE_PATHS.confirm, {
      noticeBizCode: notice.noticeBizCode,
      confirmDate: v.confirmDate?.format('YYYY-MM-DD'),
      confirmedBy: v.confirmedBy,
      fileTokens: (v.files ?? []).map((f) => f.fileToken),
    });
    if (r.ok) await onDone();
  };
  return (
    <EditModal title={`登记债务人确认：${notice.debtorName}`} open onSave={save} onCancel={onClose}>
      <Form
        form={form}
        layout="vertical"
        name="notice-confirm"
        initialValues={{ confirmDate: today ? dayjs(today) : undefined }}
      >
        <Form.Item
          name="confirmDate"
          label="确认日期"
          rules={[{ required: true, message: '请选择确认日期' }]}
        >
          <DatePicker aria-label="确认日期" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="confirmedBy" label="确认人" rules={CONFIRM_RULES.confirmedBy}>
          <Input aria-label="确认人" maxLength={50} placeholder="债务人签章确认的经办人" />
        </Form.Item>
        <FilesField
          name="files"
          label="确认文件"
          extra="债务人签章的转让通知书回执"
          rules={[{ required: true, type: 'array', min: 1, message: '请上传确认文件' }]}
        />
      </Form>
    </EditModal>
  );
}

/** 豁免 (a checker, with the reason) or 撤销 (a confirmation or a waiver, with the reason). */
function ReasonModal({
  kind,
  notice,
  onDone,
  onClose,
}: {
  kind: 'waive' | 'withdraw';
  notice: NoticeView;
  onDone: () => Promise<void>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ reason?: string }>();
  const label = kind === 'waive' ? '豁免原因' : '撤销原因';
  const save = async () => {
    const v = await form.validateFields();
    const r = await update(kind === 'waive' ? ASSIGN_NOTICE_PATHS.waive : ASSIGN_NOTICE_PATHS.withdraw, {
      noticeBizCode: notice.noticeBizCode,
      reason: v.reason,
    });
    if (r.ok) await onDone();
  };
  return (
    <EditModal
      title={`${kind === 'waive' ? '豁免债务人确认' : `撤销${NOTICE_STATUS_LABELS[notice.status]}`}：${notice.debtorName}`}
      open
      onSave={save}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" name={`notice-${kind}`}>
        <Form.Item
          name="reason"
          label={label}
          rules={kind === 'waive' ? WAIVE_RULES.reason : WITHDRAW_RULES.reason}
        >
          <Input.TextArea aria-label={label} rows={3} maxLength={200} />
        </Form.Item>
      </Form>
    </EditModal>
  );
}
