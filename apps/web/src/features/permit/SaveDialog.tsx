import { useQuery } from '@tanstack/react-query';
import { Checkbox, Form, Input, Modal, Select } from 'antd';
import {
  PERMIT_AREA_LABELS,
  PERMIT_SUBJECT_LABELS,
  custSaveSchema,
  userSaveSchema,
  type PermitArea,
  type PermitRow,
  type PermitSubject,
} from '@portal/contract/permit';
import { usePageFormName } from '../../shared/form/form-name';
import { fieldRules } from '../../shared/form/zod-rule';
import { validValues } from '../../shared/ui/valid-values';
import { permitQueries, useCustomers, usePermitDict, usePermitMutations } from './api';

const custRules = fieldRules(custSaveSchema);
const userRules = fieldRules(userSaveSchema);

/** What the dialog edits: a saved admission's row, or none for 新增. */
export interface EditTarget {
  row?: PermitRow;
}

/** 新增 / 编辑 of a saved admission: the subject, its roles, a remark. */
export function SaveDialog({
  subject,
  area,
  target,
  onClose,
}: {
  subject: PermitSubject;
  area: PermitArea;
  target: EditTarget | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ compCode?: string; userCode?: string; roles: string[]; remark?: string }>();
  const formName = usePageFormName('permit-save');
  const dict = usePermitDict(subject).data;
  const customers = useCustomers().data ?? [];
  const compCode = Form.useWatch('compCode', form);
  const candidates = useQuery(permitQueries.candidates(compCode, subject === 'user'));
  const { save } = usePermitMutations();
  const row = target?.row;

  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    const common = {
      ...(row ? { bizCode: row.bizCode, version: row.version } : {}),
      area,
      roles: v.roles,
      remark: v.remark,
    };
    // The request layer has warned of a failure.
    const r = await save
      .mutateAsync(
        subject === 'cust'
          ? { subject, body: { ...common, compCode: v.compCode ?? '' } }
          : { subject, body: { ...common, userCode: v.userCode ?? '' } },
      )
      .catch(() => null);
    if (r?.ok) onClose();
  };

  const userOptions = [
    ...(candidates.data ?? []).map((u) => ({ value: u.userCode, label: `${u.userName}（${u.mobile}）` })),
    ...(row?.userCode && !(candidates.data ?? []).some((u) => u.userCode === row.userCode)
      ? [{ value: row.userCode, label: row.userName ?? row.userCode }]
      : []),
  ];

  return (
    <Modal
      open={!!target}
      title={`${row ? '编辑' : '新增'}${PERMIT_AREA_LABELS[area]}${PERMIT_SUBJECT_LABELS[subject]}准入`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="保存"
      confirmLoading={save.isPending}
      destroyOnHidden
      width={560}
    >
      <Form
        form={form}
        name={formName}
        layout="vertical"
        preserve={false}
        initialValues={
          row
            ? { compCode: row.compCode, userCode: row.userCode, roles: row.roles, remark: row.remark }
            : { roles: [] }
        }
        data-testid="permit-save-form"
      >
        <Form.Item name="compCode" label="企业客户" rules={custRules.compCode}>
          <Select
            showSearch
            optionFilterProp="label"
            placeholder="选择企业客户"
            options={customers.map((c) => ({ value: c.code, label: c.label }))}
            onChange={() => form.setFieldValue('userCode', undefined)}
          />
        </Form.Item>
        {subject === 'user' ? (
          <Form.Item name="userCode" label="企业用户" rules={userRules.userCode}>
            <Select
              placeholder={compCode ? '选择已审核通过的企业用户' : '请先选择企业客户'}
              options={userOptions}
              loading={candidates.isFetching}
              notFoundContent="该企业没有可准入的企业用户"
            />
          </Form.Item>
        ) : null}
        <Form.Item name="roles" label="角色" rules={custRules.roles}>
          <Checkbox.Group
            options={(dict?.roles[area] ?? []).map((r) => ({ value: r.code, label: r.label }))}
          />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={custRules.remark}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
