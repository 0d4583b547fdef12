import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space } from 'antd';
import { CHANGE_TYPE_LABELS, CREDIT_PATHS } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { CREDIT_ROUTES, creditApi } from './api';
import { StateTag } from './components';
import { AuditView } from '../../shared/workflow/AuditView';

/** 额度变更查看, with 通过 / 驳回 while pending. */
export default function ChangeViewPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const change = useQuery({
    queryKey: ['credit', 'chg', bizCode],
    queryFn: () => creditApi.change(bizCode),
    enabled: !!bizCode,
  });
  const c = change.data;
  return (
    <Card
      data-testid="chg-view"
      title={
        <Space>
          <span>额度变更查看 {bizCode}</span>
          {c ? <StateTag state={c.state} /> : null}
        </Space>
      }
      extra={
        <Space>
          <Button onClick={() => navigate(CREDIT_ROUTES.chgList)}>返回</Button>
        </Space>
      }
    >
      <AuditView
        docType="credChange"
        docCode={bizCode}
        menuCode="ft-credit-chg"
        decide={{
          auditPath: CREDIT_PATHS.passCredChange,
          unAuditPath: CREDIT_PATHS.rejectCredChange,
          actions: { audit: 'pass', unAudit: 'reject' },
          onDone: () => void qc.invalidateQueries({ queryKey: ['credit'] }),
        }}
      >
        {c ? (
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label="授信编号">{c.credBizCode}</Descriptions.Item>
            <Descriptions.Item label="客户">{c.custName}</Descriptions.Item>
            <Descriptions.Item label="额度编号">{c.lineCode}</Descriptions.Item>
            <Descriptions.Item label="变更类型">{CHANGE_TYPE_LABELS[c.changeType]}</Descriptions.Item>
            <Descriptions.Item label="原额度">{formatMoney(c.oldLimit)}</Descriptions.Item>
            <Descriptions.Item label="变更后额度">
              {c.newLimit ? formatMoney(c.newLimit) : '-'}
            </Descriptions.Item>
            <Descriptions.Item label="原到期日">{c.oldEndDate}</Descriptions.Item>
            <Descriptions.Item label="变更后到期日">{c.newEndDate ?? '-'}</Descriptions.Item>
            <Descriptions.Item label="当前额度">
              {c.line ? formatMoney(c.line.limitAmount) : '-'}
            </Descriptions.Item>
            <Descriptions.Item label="当前已占用">
              {c.line ? formatMoney(c.line.occupiedAmount) : '-'}
            </Descriptions.Item>
            <Descriptions.Item label="变更原因" span={2}>
              {c.reason}
            </Descriptions.Item>
          </Descriptions>
        ) : null}
      </AuditView>
    </Card>
  );
}
