import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Descriptions } from 'antd';
import type { InfoChangeView } from '@portal/contract/crm-change';
import { formatDateTime } from '@portal/contract/format';
import type { ScreenProps } from '../../shared/ui/screen';
import { CHANGE_ROUTES, crmChangeQueries } from './api';
import { ChangeDiffTable } from './ChangeDiffTable';
import { ChangeViewFrame } from './ChangeFrames';
import { CompanyHistorySection } from './CompanyHistory';
import { INFO_KIND } from './kinds';

function ChangeHead({ view }: { view: InfoChangeView }) {
  return (
    <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
      <Descriptions.Item label="企业客户">{`${view.compName}（${view.compCode}）`}</Descriptions.Item>
      <Descriptions.Item label="经办人">{view.createdByName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="创建时间">{formatDateTime(view.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="变更原因" span={3}>
        {view.reason ?? '—'}
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * 企业信息变更查看: tab after 变更信息 (before / after) and tab reviewInformation 审核信息 (the audit
 * view with 审批记录, 流程图, 传阅 and 流程审批).
 */
export function InfoChangeViewPage({ meta }: ScreenProps) {
  const review = meta.path.endsWith('/reviewInformation');
  const [params] = useSearchParams();
  const code = params.get('bizCode') ?? '';
  const q = useQuery(crmChangeQueries.infoView(code));
  const v = q.data;
  return (
    <ChangeViewFrame
      kind={INFO_KIND}
      testId="info-change-view"
      docCode={code}
      state={v?.state}
      audit={review}
      editTo={`${CHANGE_ROUTES.editor}/at-info?bizCode=${code}`}
      loading={q.isLoading}
    >
      {v ? (
        <>
          <ChangeHead view={v} />
          <ChangeDiffTable view={v} />
          <CompanyHistorySection compCode={v.compCode} root={INFO_KIND.queryRoot} />
        </>
      ) : null}
    </ChangeViewFrame>
  );
}
