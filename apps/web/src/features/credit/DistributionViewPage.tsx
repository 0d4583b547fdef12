import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Table } from 'antd';
import { DIST_TARGET_LABELS, PRODUCT_LABELS, type DistView } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { FileList } from '../../shared/files/FileList';
import { codeColumn, moneyColumn } from '../../shared/list/columns';
import { creditQueries } from './api';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { docFrameProps, useDocCode } from '../../shared/workflow/doc-kind';
import { DISTRIBUTION_DOC } from './doc-kinds';

/** 额度分配查看, with 通过 / 驳回 while pending. */
export default function DistributionViewPage() {
  const bizCode = useDocCode(DISTRIBUTION_DOC);
  const dist = useQuery(creditQueries.distribution(bizCode));
  const files = useQuery(creditQueries.distFiles(bizCode));
  const d = dist.data;
  return (
    <DocViewFrame
      testId="dist-view"
      title="额度分配查看"
      state={d?.state}
      {...docFrameProps(DISTRIBUTION_DOC, bizCode)}
    >
      {d ? (
        <>
          <Descriptions bordered size="small" column={3}>
            <Descriptions.Item label="授信编号">{d.credBizCode}</Descriptions.Item>
            <Descriptions.Item label="客户">{d.custName}</Descriptions.Item>
            <Descriptions.Item label="平台额度">{d.parentLineCode}</Descriptions.Item>
            <Descriptions.Item label="分配合计">{formatMoney(d.totalAmount)}</Descriptions.Item>
            <Descriptions.Item label="平台额度可用">
              {d.parent ? formatMoney(d.parent.availableAmount) : '-'}
            </Descriptions.Item>
            <Descriptions.Item label="备注">{d.remark ?? '-'}</Descriptions.Item>
          </Descriptions>
          <Table<DistView['items'][number]>
            style={{ marginTop: 16 }}
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={d.items}
            columns={[
              {
                title: '分配对象',
                dataIndex: 'targetType',
                render: (v: keyof typeof DIST_TARGET_LABELS) => DIST_TARGET_LABELS[v],
              },
              {
                title: '成员客户/产品',
                render: (_, r) =>
                  r.targetType === 'member'
                    ? r.custName
                    : PRODUCT_LABELS[r.product as keyof typeof PRODUCT_LABELS],
              },
              moneyColumn('分配额度', 'amount'),
              codeColumn('生成额度编号', 'lineCode'),
              { title: '备注', dataIndex: 'remark' },
            ]}
          />
          <Card size="small" title="分配文件" style={{ marginTop: 16 }}>
            <FileList value={files.data ?? []} readOnly />
          </Card>
        </>
      ) : null}
    </DocViewFrame>
  );
}
