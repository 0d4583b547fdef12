import { Descriptions } from 'antd';
import { CHANGE_TYPE_LABELS } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { creditApi } from './api';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { CHANGE_DOC } from './doc-kinds';

/** 额度变更查看, with 通过 / 驳回 while pending. */
export default function ChangeViewPage() {
  return (
    <DocViewPage kind={CHANGE_DOC} testId="chg-view" title="额度变更查看" load={creditApi.change}>
      {(c) => (
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
      )}
    </DocViewPage>
  );
}
