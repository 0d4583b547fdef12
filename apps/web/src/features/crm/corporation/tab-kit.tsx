import { useMemo, type ReactNode } from 'react';
import { Card, Empty, Space, Tag } from 'antd';
import { button } from '@portal/contract/menus';
import { fetchList, type ListParams } from '../../../shared/request/http';
import type { ScreenProps } from '../../../shared/ui/screen';
import { CORP_VIEW_PATH, CRM_MENUS, useCustomer } from '../api';

/** The button code of every change on the customer tabs. */
export const SAVE = button(CRM_MENUS.edit, 'save');
export const isView = (meta: ScreenProps['meta']) => (meta.tabOf ?? meta.path).startsWith(CORP_VIEW_PATH);

/** The frame of every tab: the customer's name, and a hint while the customer is not saved yet. */
export function TabFrame({
  title,
  compCode,
  children,
  testId,
}: {
  title: string;
  compCode: string | undefined;
  children: ReactNode;
  testId: string;
}) {
  const customer = useCustomer(compCode);
  return (
    <Card
      className="crm-tab"
      data-testid={testId}
      title={
        <Space>
          <span>{title}</span>
          {customer.data ? <Tag color="blue">{customer.data.compName}</Tag> : null}
        </Space>
      }
    >
      {compCode ? children : <Empty description="请先在「基本信息」中保存企业" />}
    </Card>
  );
}

/** A server-paged list of one customer's rows (docs/protocol.md "Lists"). */
export function useCustomerFetcher<T>(path: string, compCode: string | undefined) {
  return useMemo(
    () => (p: ListParams) =>
      fetchList<T>(path, { ...p, compCode }).then((b) => b.data ?? { list: [] as T[], total: 0 }),
    [path, compCode],
  );
}
