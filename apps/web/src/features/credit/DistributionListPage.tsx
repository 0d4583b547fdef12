import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { Button, Form, Input, Select, Space } from 'antd';
import { CREDIT_PATHS, DOC_STATE_LABELS, type DistView } from '@portal/contract/credit';
import { ListPage, type ListPageHandle } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import { CREDIT_ROUTES, creditApi } from './api';
import { StateTag } from './components';

const MENU = 'ft-credit-dist';
type Row = Omit<DistView, 'items' | 'parent'>;

/** 额度分配 list (credDistributionList). */
export default function DistributionListPage() {
  const navigate = useNavigate();
  const list = useRef<ListPageHandle>(null);
  const editable = (r: Row) => r.state === 'draft' || r.state === 'rejected';
  return (
    <ListPage<Row>
      ref={list}
      source={CREDIT_PATHS.credDistributionList}
      rowKey="bizCode"
      filters={
        <>
          <Form.Item name="custName" label="客户名称">
            <Input allowClear />
          </Form.Item>
          <Form.Item name="state" label="状态">
            <Select
              allowClear
              style={{ width: 120 }}
              options={Object.entries(DOC_STATE_LABELS).map(([value, label]) => ({ value, label }))}
            />
          </Form.Item>
        </>
      }
      toolbar={
        <Auth code={`${MENU}:add`}>
          <Button type="primary" onClick={() => navigate(CREDIT_ROUTES.distEditor)}>
            新增额度分配
          </Button>
        </Auth>
      }
      columns={[
        codeColumn('分配编号', 'bizCode'),
        codeColumn('授信编号', 'credBizCode'),
        { title: '客户名称', dataIndex: 'custName', key: 'custName' },
        codeColumn('平台额度', 'parentLineCode'),
        moneyColumn('分配合计', 'totalAmount'),
        dateColumn('更新时间', 'updatedAt', { withTime: true }),
        {
          title: '状态',
          dataIndex: 'state',
          key: 'state',
          render: (_: unknown, r: Row) => <StateTag state={r.state} />,
        },
        {
          title: '操作',
          key: 'actions',
          render: (_: unknown, r: Row) => (
            <Space size={4}>
              <Button
                type="link"
                size="small"
                onClick={() => navigate(`${CREDIT_ROUTES.distView}?bizCode=${r.bizCode}`)}
              >
                查看
              </Button>
              {editable(r) ? (
                <Auth code={`${MENU}:save`}>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => navigate(`${CREDIT_ROUTES.distEditor}?bizCode=${r.bizCode}`)}
                  >
                    编辑
                  </Button>
                </Auth>
              ) : null}
              {editable(r) ? (
                <Auth code={`${MENU}:delete`}>
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() =>
                      void creditApi
                        .remove(CREDIT_PATHS.deleteCredDistribution, r.bizCode, '额度分配')
                        .then((x) => x.ok && list.current?.reload())
                        .catch(() => undefined)
                    }
                  >
                    删除
                  </Button>
                </Auth>
              ) : null}
            </Space>
          ),
        },
      ]}
    />
  );
}
