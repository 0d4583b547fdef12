import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Tag, type TableColumnsType } from 'antd';
import { CRM_PATHS, roleSaveSchema, type CompRoleRow, type RoleSave } from '@portal/contract/crm';
import { fieldRules } from '../../../shared/form/zod-rule';
import { EditModal } from '../../../shared/list/EditModal';
import { ListPage } from '../../../shared/list/ListPage';
import { AddButton } from '../../../shared/list/AddButton';
import { actionsColumn } from '../../../shared/list/RowActions';
import { updateThen } from '../../../shared/list/update-then';
import { useRowEditor } from '../../../shared/list/use-row-editor';
import { codeColumn } from '../../../shared/list/columns';
import type { ScreenProps } from '../../../shared/ui/screen';
import { crmKeys, useCompCode } from '../api';
import { CompUserSelect } from '../CompUserSelect';
import { isView, SAVE, TabFrame, useCustomerFetcher } from './tab-kit';
import { validValues } from '../../../shared/ui/valid-values';

type RoleValues = Pick<RoleSave, 'roleName' | 'remark' | 'userCodes'>;

const rules = fieldRules(roleSaveSchema);

/** 企业角色: the customer's internal roles (经办人, 复核人, 财务, …) and their members. */
export function RoleTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RoleValues>();
  const fetcher = useCustomerFetcher<CompRoleRow>(CRM_PATHS.roleList, compCode);

  const { editing, row, open, close } = useRowEditor(form, (r: CompRoleRow) => ({
    roleName: r.roleName,
    remark: r.remark ?? undefined,
    userCodes: r.users.map((u) => u.userCode),
  }));

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    await updateThen(
      CRM_PATHS.roleSave,
      {
        ...v,
        userCodes: v.userCodes ?? [],
        compCode,
        ...(row ? { roleCode: row.roleCode, version: row.version } : {}),
      },
      {},
      () => {
        close();
        void queryClient.invalidateQueries({ queryKey: crmKeys.part('employees', compCode) });
      },
    );
  };

  const columns: TableColumnsType<CompRoleRow> = [
    codeColumn('角色编号', 'roleCode', { width: 130 }),
    { title: '角色名称', dataIndex: 'roleName', key: 'roleName', width: 140 },
    {
      title: '成员',
      dataIndex: 'users',
      key: 'users',
      render: (us: CompRoleRow['users']) => us.map((u) => <Tag key={u.userCode}>{u.userName}</Tag>),
    },
    { title: '备注', dataIndex: 'remark', key: 'remark', width: 160 },
    ...(readOnly
      ? []
      : [
          actionsColumn<CompRoleRow>((row) => [
            { label: '编辑', code: SAVE, onClick: () => open(row) },
            {
              label: '删除',
              code: SAVE,
              danger: true,
              onClick: () =>
                void updateThen(
                  CRM_PATHS.roleDel,
                  { version: row.version },
                  {
                    query: { roleCode: row.roleCode },
                    confirm: `确定要删除企业角色「${row.roleName}」吗？`,
                  },
                ),
            },
          ]),
        ]),
  ];

  return (
    <TabFrame title="企业角色" compCode={compCode} testId="crm-tab-role">
      <ListPage<CompRoleRow>
        source={fetcher}
        queryKey={crmKeys.part('roles', compCode)}
        rowKey="roleCode"
        columns={columns}
        tableProps={{ size: 'small' }}
        toolbar={
          readOnly ? null : (
            <AddButton code={SAVE} onClick={() => open('new')}>
              新增角色
            </AddButton>
          )
        }
      />
      <EditModal
        title={editing === 'new' ? '新增企业角色' : '编辑企业角色'}
        open={editing !== null}
        onSave={save}
        onCancel={close}
      >
        <Form<RoleValues> form={form} layout="vertical" name="crmRole" initialValues={{ userCodes: [] }}>
          <Form.Item name="roleName" label="角色名称" rules={rules.roleName}>
            <Input maxLength={30} placeholder="如 经办人、复核人、财务" />
          </Form.Item>
          <Form.Item name="userCodes" rules={rules.userCodes} label="角色成员">
            <CompUserSelect
              compCode={compCode}
              state="enabled"
              known={row ? row.users.map((u) => ({ value: u.userCode, label: u.userName })) : []}
            />
          </Form.Item>
          <Form.Item name="remark" rules={rules.remark} label="备注">
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </EditModal>
    </TabFrame>
  );
}
