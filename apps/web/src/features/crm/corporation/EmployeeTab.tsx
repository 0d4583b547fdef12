import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Space, Tag, TreeSelect, type TableColumnsType } from 'antd';
import {
  CRM_PATHS,
  REG_STATE_LABELS,
  USER_STATE_LABELS,
  type CompUserRow,
  type EmployeeSave,
  employeeSaveSchema,
} from '@portal/contract/crm';
import { fieldRules } from '../../../shared/form/zod-rule';
import { EditModal } from '../../../shared/list/EditModal';
import { ListPage } from '../../../shared/list/ListPage';
import { AddButton } from '../../../shared/list/AddButton';
import { actionsColumn } from '../../../shared/list/RowActions';
import { updateThen } from '../../../shared/list/update-then';
import { useRowEditor } from '../../../shared/list/use-row-editor';
import { codeColumn } from '../../../shared/list/columns';
import type { ScreenProps } from '../../../shared/ui/screen';
import { crmKeys, deptOptions, useCompCode, useDeptTree } from '../api';
import { isView, SAVE, TabFrame, useCustomerFetcher } from './tab-kit';
import { validValues } from '../../../shared/ui/valid-values';

const rules = fieldRules(employeeSaveSchema);

type EmployeeValues = Omit<EmployeeSave, 'compCode' | 'userCode' | 'version'>;

/** 企业用户: the customer's people (add / edit / enable / disable), their department and roles. */
export function EmployeeTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const queryClient = useQueryClient();
  const depts = useDeptTree(compCode).data ?? [];
  const [form] = Form.useForm<EmployeeValues>();
  const fetcher = useCustomerFetcher<CompUserRow>(CRM_PATHS.employeeList, compCode);

  const { editing, row, open, close } = useRowEditor(form, (r: CompUserRow) => ({
    userName: r.userName,
    mobile: r.mobile,
    idCardNo: r.idCardNo ?? undefined,
    email: r.email ?? undefined,
    deptCode: r.deptCode ?? undefined,
    post: r.post ?? undefined,
    remark: r.remark ?? undefined,
  }));

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    await updateThen(
      CRM_PATHS.employeeSave,
      { ...v, compCode, ...(row ? { userCode: row.userCode, version: row.version } : {}) },
      {},
      () => {
        close();
        void queryClient.invalidateQueries({ queryKey: crmKeys.part('users', compCode) });
      },
    );
  };

  const columns: TableColumnsType<CompUserRow> = [
    codeColumn('用户编号', 'userCode', { width: 130 }),
    {
      title: '姓名',
      dataIndex: 'userName',
      key: 'userName',
      width: 110,
      render: (v: string, r) => (
        <Space size={4}>
          {v}
          {r.isManager ? <Tag color="gold">管理员</Tag> : null}
        </Space>
      ),
    },
    { title: '手机号', dataIndex: 'mobile', key: 'mobile', width: 130 },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 120 },
    { title: '岗位', dataIndex: 'post', key: 'post', width: 110 },
    {
      title: '企业角色',
      dataIndex: 'roleNames',
      key: 'roleNames',
      width: 180,
      render: (names: string[]) => names.map((n) => <Tag key={n}>{n}</Tag>),
    },
    {
      title: '注册审核',
      dataIndex: 'regState',
      key: 'regState',
      width: 90,
      render: (s: CompUserRow['regState']) => REG_STATE_LABELS[s],
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (s: CompUserRow['state']) => (
        <Tag color={s === 'enabled' ? 'green' : 'default'}>{USER_STATE_LABELS[s]}</Tag>
      ),
    },
    ...(readOnly
      ? []
      : [
          actionsColumn<CompUserRow>((row) => {
            const enable = row.state !== 'enabled';
            return [
              { label: '编辑', code: SAVE, onClick: () => open(row) },
              {
                label: enable ? '启用' : '停用',
                code: SAVE,
                onClick: () =>
                  void updateThen(enable ? CRM_PATHS.employeeEnable : CRM_PATHS.employeeDisable, undefined, {
                    query: { userCode: row.userCode },
                    confirm: `确定要${enable ? '启用' : '停用'}企业用户「${row.userName}」吗？`,
                  }),
              },
            ];
          }),
        ]),
  ];

  return (
    <TabFrame title="企业用户" compCode={compCode} testId="crm-tab-employee">
      <ListPage<CompUserRow>
        source={fetcher}
        queryKey={crmKeys.part('employees', compCode)}
        rowKey="userCode"
        columns={columns}
        tableProps={{ size: 'small', scroll: { x: 1100 } }}
        filters={
          <Form.Item name="userName" label="姓名">
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
        }
        toolbar={
          readOnly ? null : (
            <AddButton code={SAVE} onClick={() => open('new')}>
              新增用户
            </AddButton>
          )
        }
      />
      <EditModal
        title={editing === 'new' ? '新增企业用户' : '编辑企业用户'}
        open={editing !== null}
        onSave={save}
        onCancel={close}
      >
        <Form<EmployeeValues> form={form} layout="vertical" name="crmEmployee">
          <Form.Item name="userName" label="姓名" rules={rules.userName}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="mobile" label="手机号" rules={rules.mobile}>
            <Input maxLength={11} />
          </Form.Item>
          <Form.Item name="idCardNo" label="身份证号" rules={rules.idCardNo}>
            <Input maxLength={18} />
          </Form.Item>
          <Form.Item name="email" label="邮箱" rules={rules.email}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="deptCode" label="所属部门" rules={rules.deptCode}>
            <TreeSelect allowClear treeDefaultExpandAll treeData={deptOptions(depts)} />
          </Form.Item>
          <Form.Item name="post" label="岗位" rules={rules.post}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="remark" label="备注" rules={rules.remark}>
            <Input maxLength={500} />
          </Form.Item>
        </Form>
      </EditModal>
    </TabFrame>
  );
}
