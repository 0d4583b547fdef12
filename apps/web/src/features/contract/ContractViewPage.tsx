import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Tabs } from 'antd';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import { FileList } from '../../shared/files/FileList';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { PlanChart } from '../../shared/plan/PlanChart';
import { CONTRACT_ROUTES, contractKeys, contractQueries } from './api';
import { DuesTable, InfoDescriptions, PayersTable, PlanTable, ReceivablesTable } from './components';
import { ContractStateTags } from './state-tags';
import { PrintButton } from '../../shared/print/PrintButton';
import { NoticeTab } from './NoticeTab';

/**
 * 合同查看: every section read-only in the document view frame (审核 / 驳回 while pending, 撤回 for
 * its maker, 编辑 and the reason while it is back with its maker).
 */
export default function ContractViewPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const info = useQuery(contractQueries.info(bizCode));
  const scheme = useQuery(contractQueries.scheme(bizCode));
  const dues = useQuery(contractQueries.dues(bizCode));
  const business = useQuery(contractQueries.business(bizCode));
  const files = useQuery(contractQueries.files(bizCode));
  const c = info.data;
  const b = business.data;
  return (
    <DocViewFrame
      testId="contract-view"
      title="合同查看"
      state={c?.state}
      stateTags={c ? <ContractStateTags row={c} /> : null}
      actions={<PrintButton docCode={bizCode} types={['contract', 'repayment']} />}
      backTo={CONTRACT_ROUTES.list}
      editTo={`${CONTRACT_ROUTES.editor}?bizCode=${bizCode}`}
      docType="contract"
      docCode={bizCode}
      menuCode="ft-contract-info"
      auditPath={CONTRACT_PATHS.infoAudit}
      unAuditPath={CONTRACT_PATHS.infoUnAudit}
      refresh={contractKeys.all}
    >
      <Tabs
        items={[
          {
            key: 'info',
            label: '基本信息',
            children: c ? (
              <>
                <InfoDescriptions c={c} />
                <h4 style={{ marginTop: 16 }}>应收账款</h4>
                <ReceivablesTable rows={c.receivables} />
              </>
            ) : null,
          },
          {
            key: 'scheme',
            label: '方案/还款计划',
            children:
              scheme.data && scheme.data.items.length > 0 ? (
                <>
                  <Descriptions size="small" column={4} style={{ marginBottom: 8 }}>
                    <Descriptions.Item label="计息规则">
                      {scheme.data.ruleName ?? scheme.data.ruleBizCode}
                    </Descriptions.Item>
                    <Descriptions.Item label="前置利息">
                      {formatMoney(scheme.data.upfrontInterest)}
                    </Descriptions.Item>
                    <Descriptions.Item label="利息合计">
                      {formatMoney(scheme.data.totalInterest)}
                    </Descriptions.Item>
                    <Descriptions.Item label="费用合计">
                      {formatMoney(scheme.data.totalFee)}
                    </Descriptions.Item>
                  </Descriptions>
                  <PlanTable items={scheme.data.items} asOf={scheme.data.asOf} />
                  <PlanChart items={scheme.data.items} height={260} />
                </>
              ) : (
                <Alert type="warning" showIcon message="尚未生成还款计划" />
              ),
          },
          { key: 'dues', label: '应收费用', children: <DuesTable rows={dues.data ?? []} /> },
          {
            key: 'business',
            label: '业务信息',
            children: b?.contractdetailCode ? (
              <Descriptions size="small" bordered column={2}>
                <Descriptions.Item label="贸易合同号">{b.tradeContractNo}</Descriptions.Item>
                <Descriptions.Item label="货物名称">{b.goodsName}</Descriptions.Item>
                <Descriptions.Item label="贸易合同金额">{formatMoney(b.tradeAmount)}</Descriptions.Item>
                <Descriptions.Item label="签订日">{b.tradeDate ?? '—'}</Descriptions.Item>
                <Descriptions.Item label="业务备注" span={2}>
                  {b.remark ?? '—'}
                </Descriptions.Item>
              </Descriptions>
            ) : (
              <Alert type="info" showIcon message="未填写业务信息" />
            ),
          },
          { key: 'files', label: '附件', children: <FileList value={files.data ?? []} readOnly /> },
          { key: 'payers', label: '付款方信息', children: <PayersTable rows={c?.payers ?? []} /> },
          { key: 'notice', label: '转让通知', children: <NoticeTab contBizCode={bizCode} /> },
        ]}
      />
    </DocViewFrame>
  );
}
