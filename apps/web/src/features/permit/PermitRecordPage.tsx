import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Descriptions, Empty, Form, Input, Space, Table } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import {
  PERMIT_AREA_LABELS,
  PERMIT_SUBJECT_LABELS,
  setRoleSchema,
  type PermitSubject,
  type RoleChangeRow,
} from '@portal/contract/permit';
import { usePageFormName } from '../../shared/form/form-name';
import { fieldRules } from '../../shared/form/zod-rule';
import type { ScreenProps } from '../../shared/ui/screen';
import { validValues } from '../../shared/ui/valid-values';
import { permitQueries, PERMIT_ROUTES, usePermitDict, usePermitMutations } from './api';
import { OpenCustPicker } from './OpenCustPicker';
import { historyColumns, RoleTags, StateTag, usePermitButtons } from './parts';

const setRoleRules = fieldRules(setRoleSchema);

const HISTORY_PAGE = 10;

/** The role history of one admission, paged through roleChg/list?permitCode= (docs/protocol.md "Lists"). */
function PermitHistory({ bizCode }: { bizCode: string }) {
  const navigate = useNavigate();
  const [pageNum, setPageNum] = useState(1);
  const q = useQuery(permitQueries.history(bizCode, pageNum, HISTORY_PAGE));
  return (
    <Table<RoleChangeRow>
      size="small"
      rowKey="bizCode"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      pagination={{
        current: pageNum,
        pageSize: HISTORY_PAGE,
        total: q.data?.total ?? 0,
        hideOnSinglePage: true,
        showSizeChanger: false,
        showTotal: (n) => `共 ${n} 条`,
        onChange: setPageNum,
      }}
      columns={historyColumns((code) => navigate(`${PERMIT_ROUTES.roleChgView}?bizCode=${code}`))}
    />
  );
}

/**
 * The admission record (/ec/permit/comp-role-chg-editor/basic-info, and /dw/permit/comp-editor,
 * /fc/fc-editor for those areas' records): basic information, 开通 /
 * 停用, 设置角色 with a reason, and the role history. Opened from the lists with `judge`, so 返回
 * (website layout) goes back to that list.
 */
export function PermitRecordPage(_props: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const subject: PermitSubject = params.get('subject') === 'user' ? 'user' : 'cust';
  const bizCode = params.get('bizCode') ?? '';
  const allowed = usePermitButtons();
  const dict = usePermitDict(subject).data;
  const [form] = Form.useForm<{ roles: string[]; reason?: string }>();
  const formName = usePageFormName('set-role');
  const record = useQuery(permitQueries.view(subject, bizCode));
  const { open, disable, setRole } = usePermitMutations();
  const v = record.data;

  if (!bizCode) {
    return (
      <div data-testid="permit-record">
        <OpenCustPicker
          onPick={(code) => {
            const next = new URLSearchParams(location.search);
            next.set('bizCode', code);
            next.set('subject', 'cust');
            setParams(next);
          }}
        />
      </div>
    );
  }
  if (!v)
    return (
      <Card loading={record.isLoading}>{record.isError ? <Empty description="准入记录不存在" /> : null}</Card>
    );

  const name = v.subject === 'cust' ? v.compName : (v.userName ?? '');
  const canSetRole = v.state === 'open' && allowed(v.subject, v.area, 'setRole');
  const submitRoles = async () => {
    const f = await validValues(form);
    if (!f) return;
    const body = { bizCode: v.bizCode, version: v.version, area: v.area, roles: f.roles, reason: f.reason };
    // The request layer has warned of a failure.
    const r = await setRole.mutateAsync({ subject: v.subject, body }).catch(() => null);
    if (r?.ok) form.setFieldValue('reason', undefined);
  };
  const act = (mutation: typeof open) =>
    void mutation.mutateAsync({ subject: v.subject, target: v, name }).catch(() => null);

  return (
    <div data-testid="permit-record">
      <Card
        size="small"
        title={`${PERMIT_AREA_LABELS[v.area]} · ${PERMIT_SUBJECT_LABELS[v.subject]}准入 · ${name}`}
        extra={
          <Space>
            {v.state !== 'open' && allowed(v.subject, v.area, 'open') ? (
              <Button type="primary" onClick={() => act(open)}>
                {v.state === 'disabled' ? '重新开通' : '开通'}
              </Button>
            ) : null}
            {v.state === 'open' && allowed(v.subject, v.area, 'disable') ? (
              <Button danger onClick={() => act(disable)}>
                停用
              </Button>
            ) : null}
          </Space>
        }
      >
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label="准入编号">{v.bizCode}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <StateTag state={v.state} />
          </Descriptions.Item>
          <Descriptions.Item label="企业名称">{v.compName}</Descriptions.Item>
          <Descriptions.Item label="统一社会信用代码">{v.usccCode}</Descriptions.Item>
          {v.subject === 'user' ? (
            <>
              <Descriptions.Item label="用户姓名">{v.userName}</Descriptions.Item>
              <Descriptions.Item label="手机号">{v.mobile}</Descriptions.Item>
            </>
          ) : null}
          <Descriptions.Item label="当前角色">
            <RoleTags subject={v.subject} area={v.area} roles={v.roles} />
          </Descriptions.Item>
          <Descriptions.Item label="备注">{v.remark ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="开通时间">{formatDateTime(v.openedAt) || '—'}</Descriptions.Item>
          <Descriptions.Item label="停用时间">{formatDateTime(v.disabledAt) || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      {canSetRole ? (
        <Card size="small" title="设置角色" style={{ marginTop: 12 }}>
          <Form
            form={form}
            name={formName}
            layout="vertical"
            initialValues={{ roles: v.roles }}
            key={`${v.bizCode}-${v.version}`}
          >
            <Form.Item name="roles" label="角色" rules={setRoleRules.roles}>
              <Checkbox.Group
                options={(dict?.roles[v.area] ?? []).map((r) => ({ value: r.code, label: r.label }))}
              />
            </Form.Item>
            <Form.Item name="reason" label="变更原因" rules={setRoleRules.reason}>
              <Input maxLength={200} />
            </Form.Item>
            <Button type="primary" loading={setRole.isPending} onClick={() => void submitRoles()}>
              保存角色
            </Button>
          </Form>
        </Card>
      ) : v.state !== 'open' ? (
        <Alert style={{ marginTop: 12 }} type="warning" showIcon message="准入开通后才能设置角色" />
      ) : null}
      <Card size="small" title="角色变更记录" style={{ marginTop: 12 }}>
        <PermitHistory bizCode={v.bizCode} />
      </Card>
    </div>
  );
}
