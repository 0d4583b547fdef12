import { useState } from 'react';
import { useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { Button, DatePicker, Form, Input, Modal, Select, Tag, TreeSelect } from 'antd';
import type { TableColumnsType } from 'antd';
import type { OrgNode } from '@portal/contract/permission';
import {
  NOTICE_CONTENT_MAX,
  NOTICE_LABELS as L,
  NOTICE_MENU,
  NOTICE_PATHS,
  NOTICE_STATE_LABELS,
  NOTICE_TITLE_MAX,
  noticeBodySchema,
  type NoticeBody,
  type NoticeView,
} from '@portal/contract/notices';
import { markClean } from '../../shared/editor/unsaved';
import { UnsavedInput } from '../../shared/editor/UnsavedInput';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { normalizePath } from '../../shared/routing/route-table';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import type { ScreenProps } from '../../shared/ui/screen';
import { usePageFormName } from '../../shared/form/form-name';
import { noticeQueries } from './api';

const FMT = 'YYYY-MM-DD HH:mm';
const STATE_OPTIONS = Object.entries(NOTICE_STATE_LABELS).map(([value, label]) => ({ value, label }));
const STATE_COLORS = { draft: 'default', published: 'green', withdrawn: 'orange' } as const;

interface Values {
  title?: string;
  content?: string;
  window?: [Dayjs | null, Dayjs | null] | null;
  deptCodes?: string[];
  state?: 'draft' | 'published';
}

interface TreeOption {
  value: string;
  title: string;
  children?: TreeOption[];
}
const treeOptions = (nodes: readonly OrgNode[]): TreeOption[] =>
  nodes.map((n) => ({
    value: n.deptBizCode,
    title: n.name,
    ...(n.children.length ? { children: treeOptions(n.children) } : {}),
  }));

/** The editor of one announcement (新增 or 修改), validated with the server's own schema. */
function NoticeEditor({
  row,
  onClose,
  onSaved,
}: {
  row: NoticeView | 'new';
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const formName = usePageFormName('notice');
  const path = normalizePath(useLocation().pathname);
  const orgs = useQuery(noticeQueries.orgTree());
  const initial: Values =
    row === 'new'
      ? { state: 'draft', deptCodes: [] }
      : {
          title: row.title,
          content: row.content,
          window: [dayjs(row.publishFrom, FMT), dayjs(row.publishTo, FMT)],
          deptCodes: row.depts.map((d) => d.code),
          state: row.state === 'published' ? 'published' : 'draft',
        };
  const save = async () => {
    const v = form.getFieldsValue(true) as Values;
    const body = {
      title: v.title ?? '',
      content: v.content ?? '',
      publishFrom: v.window?.[0]?.format(FMT) ?? '',
      publishTo: v.window?.[1]?.format(FMT) ?? '',
      deptCodes: v.deptCodes ?? [],
      state: v.state ?? 'draft',
    };
    const parsed = noticeBodySchema.safeParse(body);
    if (!parsed.success) {
      const field = (k: PropertyKey | undefined): keyof Values =>
        k === 'publishFrom' || k === 'publishTo' ? 'window' : ((k as keyof Values | undefined) ?? 'title');
      form.setFields(parsed.error.issues.map((i) => ({ name: field(i.path[0]), errors: [i.message] })));
      return;
    }
    const data: NoticeBody = parsed.data;
    const r =
      row === 'new'
        ? await update(NOTICE_PATHS.add, data, { confirm: `确定要新增公告「${data.title}」吗？` }).catch(
            () => null,
          )
        : await update(
            NOTICE_PATHS.update,
            { ...data, id: row.id, version: row.version },
            {
              confirm: `确定要保存公告「${data.title}」吗？`,
            },
          ).catch(() => null);
    if (r?.ok) onSaved();
  };
  return (
    <Modal
      open
      width={760}
      title={row === 'new' ? '新增公告' : '修改公告'}
      onCancel={() => {
        // Closed without saving: what was typed is given up, the tab need not ask about it.
        markClean(path);
        onClose();
      }}
      onOk={() => void save()}
      okText="保存"
      destroyOnHidden
    >
      <UnsavedInput>
        <Form
          form={form}
          name={formName}
          initialValues={initial}
          labelCol={{ span: 4 }}
          wrapperCol={{ span: 19 }}
        >
          <Form.Item name="title" label={L.title} required>
            <Input aria-label={L.title} maxLength={NOTICE_TITLE_MAX} />
          </Form.Item>
          <Form.Item name="content" label={L.content} required extra="纯文本，按原样显示（保留换行）">
            <Input.TextArea aria-label={L.content} rows={8} maxLength={NOTICE_CONTENT_MAX} showCount />
          </Form.Item>
          <Form.Item name="window" label="发布时间" required extra="北京时间；在此时间内显示在工作台">
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={FMT} />
          </Form.Item>
          <Form.Item name="deptCodes" label={L.deptCodes} extra="不选为全部组织；选中的组织含其下级组织">
            <TreeSelect
              aria-label={L.deptCodes}
              multiple
              treeCheckable
              treeCheckStrictly={false}
              showCheckedStrategy={TreeSelect.SHOW_PARENT}
              treeDefaultExpandAll
              allowClear
              placeholder="全部组织"
              loading={orgs.isLoading}
              treeData={treeOptions(orgs.data ?? [])}
            />
          </Form.Item>
          <Form.Item name="state" label={L.state}>
            <Select
              style={{ width: 160 }}
              options={[
                { value: 'draft', label: '草稿' },
                { value: 'published', label: '发布' },
              ]}
            />
          </Form.Item>
        </Form>
      </UnsavedInput>
    </Modal>
  );
}

/** 通知公告 (docs/operations.md "Announcements"). */
export default function NoticePage(_props: ScreenProps) {
  const buttons = useButtons(NOTICE_MENU);
  const [editing, setEditing] = useState<NoticeView | 'new'>();
  // The list refreshes through these updates (refreshListsOnUpdate).
  const setState = async (r: NoticeView, state: 'published' | 'withdrawn') => {
    await update(
      NOTICE_PATHS.setState,
      { id: r.id, state },
      {
        confirm: `确定要${state === 'published' ? '发布' : '撤回'}公告「${r.title}」吗？`,
      },
    ).catch(() => null);
  };
  const remove = async (r: NoticeView) => {
    await update(
      NOTICE_PATHS.delete,
      { id: r.id },
      {
        confirm: `确定要删除公告「${r.title}」吗？`,
      },
    ).catch(() => null);
  };
  const columns: TableColumnsType<NoticeView> = [
    { title: L.title, dataIndex: 'title', key: 'title' },
    {
      title: L.state,
      key: 'state',
      width: 90,
      render: (_: unknown, r) => <Tag color={STATE_COLORS[r.state]}>{r.stateLabel}</Tag>,
    },
    { title: L.publishFrom, dataIndex: 'publishFrom', key: 'publishFrom', width: 150 },
    { title: L.publishTo, dataIndex: 'publishTo', key: 'publishTo', width: 150 },
    {
      title: L.deptCodes,
      key: 'depts',
      render: (_: unknown, r) => (r.depts.length ? r.depts.map((d) => d.name).join('、') : '全部组织'),
    },
    { title: '创建人', dataIndex: 'createdByName', key: 'createdByName', width: 100 },
    actionsColumn<NoticeView>((r) => [
      { label: '修改', hidden: !buttons.has('update'), onClick: () => setEditing(r) },
      {
        label: '发布',
        hidden: !buttons.has('publish') || r.state === 'published',
        onClick: () => void setState(r, 'published'),
      },
      {
        label: '撤回',
        hidden: !buttons.has('publish') || r.state !== 'published',
        onClick: () => void setState(r, 'withdrawn'),
      },
      { label: '删除', danger: true, hidden: !buttons.has('delete'), onClick: () => void remove(r) },
    ]),
  ];
  return (
    <>
      <ListPage<NoticeView>
        source={NOTICE_PATHS.list}
        rowKey="id"
        columns={columns}
        sortable={['publishFrom']}
        toolbar={
          buttons.has('add') ? (
            <Button type="primary" onClick={() => setEditing('new')}>
              新增
            </Button>
          ) : null
        }
        filters={
          <>
            <Form.Item name="title" label={L.title}>
              <Input allowClear maxLength={NOTICE_TITLE_MAX} />
            </Form.Item>
            <Form.Item name="state" label={L.state}>
              <Select allowClear placeholder="全部" style={{ width: 120 }} options={STATE_OPTIONS} />
            </Form.Item>
          </>
        }
      />
      {editing ? (
        <NoticeEditor
          row={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => setEditing(undefined)}
        />
      ) : null}
    </>
  );
}
