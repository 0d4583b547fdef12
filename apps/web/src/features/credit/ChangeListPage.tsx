import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { Button, Form, Input, Select, Space } from 'antd';
import { CHANGE_TYPE_LABELS, CREDIT_PATHS, DOC_STATE_LABELS, type ChangeView } from '@portal/contract/credit';
import { ListPage, type ListPageHandle } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import { CREDIT_ROUTES, creditApi } from './api';
import { StateTag } from './components';

const MENU = 'ft-credit-chg';
type Row = Omit<ChangeView, 'line'>;
const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

/** 额度变更 list (credChangeList). */
export default function ChangeListPage() {
  const navigate = useNavigate();
  const list = useRef<ListPageHandle>(null);
  const editable = (r: Row) => r.state === 'draft' || r.state === 'rejected';
  return (
    <ListPage<Row>
      ref={list}
      source={CREDIT_PATHS.credChangeList}
      rowKey="bizCode"
      filters={
        <>
          <Form.Item name="custName" label="客户名称">
            <Input allowClear />
          </Form.Item>
          <Form.Item name="changeType" label="变更类型">
            <Select allowClear style={{ width: 120 }} options={options(CHANGE_TYPE_LABELS)} />
          </Form.Item>
          <Form.Item name="state" label="状态">
            <Select allowClear style={{ width: 120 }} options={options(DOC_STATE_LABELS)} />
          </Form.Item>
        </>
      }
      toolbar={
        <Auth code={`${MENU}:add`}>
          <Button type="primary" onClick={() => navigate(CREDIT_ROUTES.chgEditor)}>
            新增额度变更
          </Button>
        </Auth>
      }
      columns={[
        codeColumn('变更编号', 'bizCode'),
        codeColumn('授信编号', 'credBizCode'),
        { title: '客户名称', dataIndex: 'custName', key: 'custName' },
        codeColumn('额度编号', 'lineCode'),
        {
          title: '变更类型',
          dataIndex: 'changeType',
          key: 'changeType',
          render: (v: keyof typeof CHANGE_TYPE_LABELS) => CHANGE_TYPE_LABELS[v],
        },
        moneyColumn('原额度', 'oldLimit'),
        moneyColumn('变更后额度', 'newLimit'),
        dateColumn('变更后到期日', 'newEndDate'),
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
                onClick={() => navigate(`${CREDIT_ROUTES.chgView}?bizCode=${r.bizCode}`)}
              >
                查看
              </Button>
              {editable(r) ? (
                <Auth code={`${MENU}:save`}>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => navigate(`${CREDIT_ROUTES.chgEditor}?bizCode=${r.bizCode}`)}
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
                        .remove(CREDIT_PATHS.deleteCredChange, r.bizCode, '额度变更')
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
