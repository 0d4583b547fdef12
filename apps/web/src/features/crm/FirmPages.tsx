import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Select,
  Space,
  Spin,
  Tag,
  type TableColumnsType,
} from 'antd';
import {
  CRM_PATHS,
  REG_STATE_LABELS,
  REG_STATES,
  USER_STATE_LABELS,
  USER_STATES,
  type CompUserRow,
} from '@portal/contract/crm';
import { formatDateTime } from '@portal/contract/format';
import { button } from '@portal/contract/menus';
import { ListPage } from '../../shared/list/ListPage';
import { actionsColumn } from '../../shared/list/RowActions';
import { updateThen } from '../../shared/list/update-then';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import type { ScreenProps } from '../../shared/ui/screen';
import { change, FIRM_CHECK_PATH, CRM_MENUS, crmKeys, crmQueries } from './api';

const REG_COLORS = { pending: 'orange', approved: 'green', rejected: 'red' } as const;

/** /crm/frim/list 企业用户: every enterprise user, with filters; 审核 opens frimcheck. */
export function FirmListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const columns: TableColumnsType<CompUserRow> = [
    codeColumn('用户编号', 'userCode', { width: 130 }),
    { title: '姓名', dataIndex: 'userName', key: 'userName', width: 110 },
    { title: '手机号', dataIndex: 'mobile', key: 'mobile', width: 130 },
    { title: '所属企业', dataIndex: 'compName', key: 'compName', width: 220, ellipsis: true },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 110 },
    { title: '岗位', dataIndex: 'post', key: 'post', width: 110 },
    {
      title: '注册审核',
      dataIndex: 'regState',
      key: 'regState',
      width: 100,
      render: (s: CompUserRow['regState']) => <Tag color={REG_COLORS[s]}>{REG_STATE_LABELS[s]}</Tag>,
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (s: CompUserRow['state']) => USER_STATE_LABELS[s],
    },
    dateColumn('注册时间', 'createdAt', { withTime: true, width: 170 }),
    actionsColumn<CompUserRow>((row) => {
      const enable = row.state !== 'enabled';
      return [
        {
          label: row.regState === 'pending' ? '审核' : '查看',
          onClick: () => navigate(`${FIRM_CHECK_PATH}/base?userCode=${row.userCode}`),
        },
        {
          label: enable ? '启用' : '停用',
          code: button(CRM_MENUS.firm, enable ? 'enable' : 'disable'),
          onClick: () =>
            void updateThen(enable ? CRM_PATHS.firmEnable : CRM_PATHS.firmDisable, undefined, {
              query: { userCode: row.userCode },
              confirm: `确定要${enable ? '启用' : '停用'}企业用户「${row.userName}」吗？`,
            }),
        },
      ];
    }),
  ];
  return (
    <div data-testid="crm-firm-list">
      <ListPage<CompUserRow>
        source={CRM_PATHS.firmList}
        rowKey="userCode"
        columns={columns}
        tableProps={{ size: 'middle', scroll: { x: 1400 } }}
        filters={
          <>
            <Form.Item name="compName" label="企业名称">
              <Input allowClear style={{ width: 170 }} />
            </Form.Item>
            <Form.Item name="userName" label="姓名">
              <Input allowClear style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="mobile" label="手机号">
              <Input allowClear style={{ width: 130 }} />
            </Form.Item>
            <Form.Item name="regState" label="注册审核">
              <Select
                allowClear
                style={{ width: 110 }}
                options={REG_STATES.map((s) => ({ value: s, label: REG_STATE_LABELS[s] }))}
              />
            </Form.Item>
            <Form.Item name="state" label="状态">
              <Select
                allowClear
                style={{ width: 90 }}
                options={USER_STATES.map((s) => ({ value: s, label: USER_STATE_LABELS[s] }))}
              />
            </Form.Item>
          </>
        }
      />
    </div>
  );
}

/** frimcheck / 基础信息: one registration with 通过 / 驳回 and a comment (pending only). */
export function FirmCheckPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const userCode = params.get('userCode') ?? undefined;
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const user = useQuery(crmQueries.firm(userCode));
  const decide = async (pass: boolean) => {
    const r = await change(
      pass ? CRM_PATHS.firmAudit : CRM_PATHS.firmUnAudit,
      { comment },
      {
        query: { userCode: userCode! },
        confirm: pass ? '确定审核通过该注册吗？' : '确定驳回该注册吗？',
      },
    ).catch(() => null);
    if (r?.ok) {
      setComment('');
      await queryClient.invalidateQueries({ queryKey: crmQueries.firm(userCode).queryKey });
      await queryClient.invalidateQueries({ queryKey: crmKeys.firmList });
    }
  };
  if (!userCode)
    return (
      <Card title="基础信息">
        <Empty description="未指定企业用户" />
      </Card>
    );
  const u = user.data;
  return (
    <Spin spinning={user.isLoading}>
      <Card title="基础信息" data-testid="crm-firm-check">
        {u ? (
          <>
            <Descriptions bordered column={2} size="small">
              <Descriptions.Item label="用户编号">{u.userCode}</Descriptions.Item>
              <Descriptions.Item label="姓名">{u.userName}</Descriptions.Item>
              <Descriptions.Item label="手机号">{u.mobile}</Descriptions.Item>
              <Descriptions.Item label="身份证号">{u.idCardNo ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="邮箱">{u.email ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="所属企业">{u.compName}</Descriptions.Item>
              <Descriptions.Item label="部门">{u.deptName ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="岗位">{u.post ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="企业管理员">{u.isManager ? '是' : '否'}</Descriptions.Item>
              <Descriptions.Item label="状态">{USER_STATE_LABELS[u.state]}</Descriptions.Item>
              <Descriptions.Item label="注册时间">{formatDateTime(u.createdAt)}</Descriptions.Item>
              <Descriptions.Item label="注册审核">
                <Tag color={REG_COLORS[u.regState]} data-testid="reg-state">
                  {REG_STATE_LABELS[u.regState]}
                </Tag>
              </Descriptions.Item>
              <Descriptions.Item label="审核意见" span={2}>
                {u.regComment ?? '—'}
              </Descriptions.Item>
            </Descriptions>
            {u.regState === 'pending' ? (
              <Space direction="vertical" style={{ width: '100%', marginTop: 16 }}>
                <Input.TextArea
                  aria-label="审核意见"
                  rows={3}
                  maxLength={500}
                  placeholder="审核意见（驳回时必填）"
                  value={comment}
                  onChange={(e) => setComment(e.target.value)}
                />
                <Space>
                  <Auth code={button(CRM_MENUS.firm, 'audit')}>
                    <Button type="primary" onClick={() => void decide(true)}>
                      通过
                    </Button>
                  </Auth>
                  <Auth code={button(CRM_MENUS.firm, 'unAudit')}>
                    <Button danger disabled={!comment.trim()} onClick={() => void decide(false)}>
                      驳回
                    </Button>
                  </Auth>
                </Space>
              </Space>
            ) : null}
          </>
        ) : null}
      </Card>
    </Spin>
  );
}
