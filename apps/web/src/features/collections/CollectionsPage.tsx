import { useContext, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import {
  COLLECTION_CHANNEL_LABELS,
  COLLECTION_CHANNELS,
  COLLECTION_FILE_NAME,
  COLLECTION_MENU,
  COLLECTION_PATHS,
  COLLECTION_RESULT_LABELS,
  COLLECTION_RESULTS,
  PROMISE_STATE_LABELS,
  PROMISE_STATES,
  collectionCaseSchema,
  collectionListSchema,
  collectionRecordSchema,
  type CollectionCaseView,
  type CollectionRecordView,
  type CollectionRow,
  type PromiseState,
} from '@portal/contract/collections';
import { formatMoney } from '@portal/contract/format';
import { button } from '@portal/contract/menus';
import { useBizDate } from '../../shared/bizdate/api';
import { EditModal } from '../../shared/list/EditModal';
import { ListExportButton } from '../../shared/list/ExportButton';
import { ListPage } from '../../shared/list/ListPage';
import { ListParamsContext } from '../../shared/list/list-params-context';
import { actionsColumn } from '../../shared/list/RowActions';
import { codeColumn, moneyColumn } from '../../shared/list/columns';
import { fieldRules } from '../../shared/form/zod-rule';
import { Auth } from '../../shared/permission/Auth';
import { useButtons } from '../../shared/permission/use-buttons';
import { openHtmlPreview } from '../../shared/print/api';
import { update } from '../../shared/request/http';
import { collectionKeys, collectionQueries } from './api';

/** 逾期催收 (docs/collections.md): the overdue worklist, each contract's 催收记录 and case. */
const RECORD_RULES = fieldRules(collectionRecordSchema);
const CASE_RULES = fieldRules(collectionCaseSchema);
const PROMISE_COLORS: Record<PromiseState, string> = { open: 'blue', kept: 'green', broken: 'red' };
const CONDITION = '/factoring/contract/collection';

const options = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((k) => ({ value: k, label: labels[k] }));

function PromiseTag({ state }: { state: PromiseState | null }) {
  return state ? <Tag color={PROMISE_COLORS[state]}>{PROMISE_STATE_LABELS[state]}</Tag> : null;
}

const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : undefined);

interface RecordValues {
  contactDate?: Dayjs;
  channel?: string;
  contactPerson?: string;
  result?: string;
  note?: string;
  promiseDate?: Dayjs;
  promiseAmount?: string;
}

/** 登记催收记录: a contact and, when the result is 承诺还款, the promised date and amount. */
function RecordModal({
  contBizCode,
  open,
  onClose,
}: {
  contBizCode: string;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<RecordValues>();
  const qc = useQueryClient();
  const today = useBizDate().data?.businessDate;
  const result = Form.useWatch('result', form);
  const save = async () => {
    const v = await form.validateFields();
    const r = await update<CollectionCaseView>(COLLECTION_PATHS.addRecord, {
      contBizCode,
      contactDate: day(v.contactDate),
      channel: v.channel,
      contactPerson: v.contactPerson,
      result: v.result,
      note: v.note,
      promiseDate: v.result === 'promised' ? day(v.promiseDate) : undefined,
      promiseAmount: v.result === 'promised' ? v.promiseAmount : undefined,
    });
    if (r.ok) {
      qc.setQueryData(collectionKeys.case(contBizCode), r.data);
      onClose();
    }
  };
  return (
    <EditModal title="登记催收记录" open={open} onSave={save} onCancel={onClose}>
      <Form
        form={form}
        layout="vertical"
        name="collection-record"
        initialValues={{ contactDate: today ? dayjs(today) : undefined, channel: 'phone' }}
      >
        <Form.Item
          name="contactDate"
          label="联系日期"
          rules={[{ required: true, message: '请选择联系日期' }]}
        >
          <DatePicker aria-label="联系日期" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="channel" label="联系方式" rules={RECORD_RULES.channel}>
          <Select aria-label="联系方式" options={options(COLLECTION_CHANNELS, COLLECTION_CHANNEL_LABELS)} />
        </Form.Item>
        <Form.Item name="contactPerson" label="联系人" rules={RECORD_RULES.contactPerson}>
          <Input aria-label="联系人" maxLength={50} />
        </Form.Item>
        <Form.Item name="result" label="催收结果" rules={RECORD_RULES.result}>
          <Select aria-label="催收结果" options={options(COLLECTION_RESULTS, COLLECTION_RESULT_LABELS)} />
        </Form.Item>
        {result === 'promised' ? (
          <Space>
            <Form.Item
              name="promiseDate"
              label="承诺还款日期"
              rules={[{ required: true, message: '请输入承诺还款日期' }]}
            >
              <DatePicker aria-label="承诺还款日期" />
            </Form.Item>
            <Form.Item name="promiseAmount" label="承诺还款金额" rules={RECORD_RULES.promiseAmount}>
              <Input aria-label="承诺还款金额" style={{ width: 180 }} />
            </Form.Item>
          </Space>
        ) : null}
        <Form.Item name="note" label="情况说明" rules={RECORD_RULES.note}>
          <Input.TextArea aria-label="情况说明" rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </EditModal>
  );
}

interface CaseValues {
  assigneeId?: number;
  nextAction?: string;
  nextActionDate?: Dayjs;
}

/** 分配: the collector and the next action. */
function CaseModal({
  view,
  open,
  onClose,
}: {
  view: CollectionCaseView;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<CaseValues>();
  const qc = useQueryClient();
  const staff = useQuery(collectionQueries.staff(open));
  const save = async () => {
    const v = await form.validateFields();
    const r = await update<CollectionCaseView>(COLLECTION_PATHS.saveCase, {
      contBizCode: view.contBizCode,
      assigneeId: v.assigneeId,
      nextAction: v.nextAction,
      nextActionDate: day(v.nextActionDate),
    });
    if (r.ok) {
      qc.setQueryData(collectionKeys.case(view.contBizCode), r.data);
      onClose();
    }
  };
  return (
    <EditModal title="催收人与下一步行动" open={open} onSave={save} onCancel={onClose}>
      <Form
        form={form}
        layout="vertical"
        name="collection-case"
        initialValues={{
          assigneeId: view.assigneeId ?? undefined,
          nextAction: view.nextAction ?? undefined,
          nextActionDate: view.nextActionDate ? dayjs(view.nextActionDate) : undefined,
        }}
      >
        <Form.Item name="assigneeId" label="催收人" rules={CASE_RULES.assigneeId}>
          <Select
            aria-label="催收人"
            showSearch
            optionFilterProp="label"
            options={(staff.data ?? []).map((s) => ({
              value: s.userId,
              label: `${s.name}${s.deptName ? `（${s.deptName}）` : ''}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="nextAction" label="下一步行动" rules={CASE_RULES.nextAction}>
          <Input aria-label="下一步行动" maxLength={200} />
        </Form.Item>
        <Form.Item name="nextActionDate" label="下一步行动日期">
          <DatePicker aria-label="下一步行动日期" />
        </Form.Item>
      </Form>
    </EditModal>
  );
}

/** A contract's case and 催收记录, newest first, with 登记催收记录 and 分配. */
function CaseDrawer({ contBizCode, onClose }: { contBizCode: string; onClose: () => void }) {
  const buttons = useButtons(COLLECTION_MENU);
  const view = useQuery(collectionQueries.case(contBizCode));
  const [adding, setAdding] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const v = view.data;
  return (
    <Drawer
      open
      width={900}
      title={v ? `催收记录：${v.contractNo}` : '催收记录'}
      onClose={onClose}
      data-testid="collection-drawer"
      extra={
        <Space>
          {buttons.has('update') && v ? <Button onClick={() => setAssigning(true)}>分配</Button> : null}
          {buttons.has('add') ? (
            <Button type="primary" onClick={() => setAdding(true)}>
              登记催收记录
            </Button>
          ) : null}
        </Space>
      }
    >
      {v ? (
        <>
          <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="合同">{`${v.contractNo}（${v.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label="客户">{v.custName}</Descriptions.Item>
            <Descriptions.Item label="催收人">{v.assigneeName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="下一步行动">
              {v.nextAction ? `${v.nextAction}${v.nextActionDate ? `（${v.nextActionDate}）` : ''}` : '—'}
            </Descriptions.Item>
          </Descriptions>
          <Table<CollectionRecordView>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={v.records}
            data-testid="collection-records"
            locale={{ emptyText: '暂无催收记录' }}
            columns={[
              { title: '联系日期', dataIndex: 'contactDate', width: 110 },
              {
                title: '联系方式',
                key: 'channel',
                width: 80,
                render: (_: unknown, r) => COLLECTION_CHANNEL_LABELS[r.channel],
              },
              { title: '联系人', dataIndex: 'contactPerson', width: 120 },
              {
                title: '催收结果',
                key: 'result',
                width: 90,
                render: (_: unknown, r) => COLLECTION_RESULT_LABELS[r.result],
              },
              {
                title: '承诺还款',
                key: 'promise',
                render: (_: unknown, r) =>
                  r.promiseDate ? (
                    <Space size={4}>
                      {`${r.promiseDate} ${formatMoney(r.promiseAmount)}`}
                      <PromiseTag state={r.promiseState} />
                      {r.promisePaid !== null ? `实收 ${formatMoney(r.promisePaid)}` : null}
                    </Space>
                  ) : (
                    '—'
                  ),
              },
              { title: '情况说明', dataIndex: 'note' },
              { title: '登记人', dataIndex: 'createdByName', width: 90 },
            ]}
          />
          {adding ? <RecordModal contBizCode={contBizCode} open onClose={() => setAdding(false)} /> : null}
          {assigning ? <CaseModal view={v} open onClose={() => setAssigning(false)} /> : null}
        </>
      ) : null}
    </Drawer>
  );
}

/** 打印: the rows the list's search gives now, as a printable page (the export's filters). */
function PrintButton() {
  const shown = useContext(ListParamsContext);
  return (
    <Auth code={button(COLLECTION_MENU, 'print')}>
      <Button
        icon={<PrinterOutlined />}
        onClick={() => void openHtmlPreview(COLLECTION_PATHS.print, shown ?? {}).catch(() => undefined)}
      >
        打印
      </Button>
    </Auth>
  );
}

export default function CollectionsPage() {
  const [open, setOpen] = useState<string | null>(null);
  const biz = useBizDate();
  return (
    <div data-testid="collection-list">
      <Typography.Paragraph type="secondary">
        营业日 {biz.data?.businessDate ?? ''} 有逾期未还款项的合同；到期前后的催收提醒由日终发送到消息中心。
      </Typography.Paragraph>
      <ListPage<CollectionRow>
        source={COLLECTION_PATHS.list}
        rowKey="contBizCode"
        conditionKey={CONDITION}
        sortable={collectionListSchema.sortable}
        toolbar={
          <Space>
            <ListExportButton
              menu={COLLECTION_MENU}
              path={COLLECTION_PATHS.export}
              fileName={COLLECTION_FILE_NAME}
              conditionKey={CONDITION}
            />
            <PrintButton />
          </Space>
        }
        filters={
          <>
            <Form.Item name="contractNo" label="合同号">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="custName" label="客户名称">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="assigneeName" label="催收人">
              <Input allowClear style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="minOverdueDays" label="逾期天数≥">
              <InputNumber min={0} precision={0} style={{ width: 90 }} />
            </Form.Item>
            <Form.Item name="promise" label="承诺状态">
              <Select
                allowClear
                style={{ width: 100 }}
                options={options(PROMISE_STATES, PROMISE_STATE_LABELS)}
              />
            </Form.Item>
          </>
        }
        columns={[
          codeColumn('合同编号', 'contBizCode', { priority: 3 }),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', priority: 0 },
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: 1 },
          { title: '催收人', dataIndex: 'assigneeName', key: 'assigneeName', width: 90, priority: 1 },
          {
            title: '逾期天数',
            dataIndex: 'overdueDays',
            key: 'overdueDays',
            width: 90,
            align: 'right',
            priority: 0,
          },
          moneyColumn('逾期金额', 'overdueAmount', { priority: 0 }),
          moneyColumn('罚息', 'penaltyAmount', { priority: 2 }),
          {
            title: '最近联系',
            key: 'lastContactDate',
            width: 170,
            priority: 1,
            render: (_: unknown, r: CollectionRow) =>
              r.lastContactDate
                ? `${r.lastContactDate} ${r.lastContactChannel ? COLLECTION_CHANNEL_LABELS[r.lastContactChannel] : ''} ${
                    r.lastContactResult ? COLLECTION_RESULT_LABELS[r.lastContactResult] : ''
                  }`
                : '未联系',
          },
          {
            title: '承诺还款',
            key: 'promise',
            width: 200,
            priority: 2,
            render: (_: unknown, r: CollectionRow) =>
              r.promiseDate ? (
                <Space size={4}>
                  {`${r.promiseDate} ${formatMoney(r.promiseAmount)}`}
                  <PromiseTag state={r.promiseState} />
                </Space>
              ) : (
                '—'
              ),
          },
          {
            title: '下一步行动',
            key: 'nextActionDate',
            width: 180,
            priority: 2,
            render: (_: unknown, r: CollectionRow) =>
              r.nextAction ? `${r.nextAction}${r.nextActionDate ? `（${r.nextActionDate}）` : ''}` : '—',
          },
          actionsColumn<CollectionRow>((r) => [{ label: '催收记录', onClick: () => setOpen(r.contBizCode) }]),
        ]}
      />
      {open ? <CaseDrawer contBizCode={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
