import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import { PERMIT_AREA_LABELS, roleNames } from '@portal/contract/permit';
import type { ScreenProps } from '../../shared/ui/screen';
import { permitQueries, recordLink } from './api';
import { StateTag } from './parts';

/** /ec/permit/comp-role-chg-view/basic-info: one role change and the admission it belongs to. */
export function RoleChgViewPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const bizCode = params.get('bizCode') ?? '';
  const q = useQuery(permitQueries.roleChange(bizCode));
  const r = q.data;
  if (!r)
    return (
      <Card loading={q.isLoading}>
        {q.isError || !bizCode ? <Empty description="角色变更记录不存在" /> : null}
      </Card>
    );
  return (
    <div data-testid="permit-role-chg-view">
      <Card
        size="small"
        title={`企业角色变更 · ${r.compName}${r.userName ? ` · ${r.userName}` : ''}`}
        extra={
          <Button type="link" onClick={() => navigate(recordLink(r.permit))}>
            查看准入记录
          </Button>
        }
      >
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label="变更编号">{r.bizCode}</Descriptions.Item>
          <Descriptions.Item label="准入编号">{r.permitCode}</Descriptions.Item>
          <Descriptions.Item label="准入区域">{PERMIT_AREA_LABELS[r.area]}</Descriptions.Item>
          <Descriptions.Item label="类型">{r.kind === 'open' ? '开通' : '变更'}</Descriptions.Item>
          <Descriptions.Item label="变更前角色">
            {roleNames(r.subject, r.area, r.rolesBefore) || '—'}
          </Descriptions.Item>
          <Descriptions.Item label="变更后角色">
            {roleNames(r.subject, r.area, r.rolesAfter)}
          </Descriptions.Item>
          <Descriptions.Item label="变更原因">{r.reason ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="准入状态">
            <StateTag state={r.permit.state} />
          </Descriptions.Item>
          <Descriptions.Item label="操作人">{r.createdByName ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="时间">{formatDateTime(r.createdAt)}</Descriptions.Item>
        </Descriptions>
      </Card>
    </div>
  );
}
