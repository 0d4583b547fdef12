import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { buttonCode } from '@portal/contract/menus';
import { VOUCHER_MENUS, type AccountRow } from '@portal/contract/voucher';
import { useButtons } from '../../shared/permission/use-buttons';
import type { ScreenProps } from '../../shared/ui/screen';
import { voucherApi, voucherKeys, voucherQueries } from './api';
import { PackageAccounts } from './PackageAccounts';

/**
 * 科目映射: which account each use of the journals posts to. A change applies to the vouchers
 * posted after it; posted vouchers keep their accounts (docs/accounting.md).
 */
export default function AccountPage(_props: ScreenProps) {
  const qc = useQueryClient();
  const canSave = useButtons(VOUCHER_MENUS.accounts).has(buttonCode(VOUCHER_MENUS.accounts, 'save'));
  const q = useQuery(voucherQueries.accounts());
  const [edits, setEdits] = useState<Record<string, { code: string; name: string }>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const valueOf = (r: AccountRow) => edits[r.role] ?? { code: r.code, name: r.name };
  const edit = (r: AccountRow, patch: Partial<{ code: string; name: string }>) =>
    setEdits((e) => ({ ...e, [r.role]: { ...valueOf(r), ...patch } }));
  const save = async (r: AccountRow) => {
    const v = valueOf(r);
    setBusy(r.role);
    try {
      const saved = await voucherApi.saveAccount(
        { role: r.role, code: v.code, name: v.name, version: r.version },
        r.roleLabel,
      );
      if (!saved.ok) return;
      setEdits(({ [r.role]: _, ...rest }) => rest);
      await qc.invalidateQueries({ queryKey: voucherKeys.accounts });
    } catch {
      // the request layer has warned
    } finally {
      setBusy(null);
    }
  };
  const columns: TableColumnsType<AccountRow> = [
    { title: '用途', dataIndex: 'roleLabel', key: 'roleLabel', width: 200 },
    {
      title: '科目编码',
      key: 'code',
      width: 160,
      render: (_, r) =>
        canSave ? (
          <Input
            aria-label={`${r.roleLabel}科目编码`}
            value={valueOf(r).code}
            maxLength={12}
            onChange={(e) => edit(r, { code: e.target.value })}
          />
        ) : (
          r.code
        ),
    },
    {
      title: '科目名称',
      key: 'name',
      width: 220,
      render: (_, r) =>
        canSave ? (
          <Input
            aria-label={`${r.roleLabel}科目名称`}
            value={valueOf(r).name}
            maxLength={40}
            onChange={(e) => edit(r, { name: e.target.value })}
          />
        ) : (
          r.name
        ),
    },
    { title: '修改时间', dataIndex: 'updatedAt', key: 'updatedAt', width: 180 },
    {
      title: '操作',
      key: 'op',
      width: 90,
      fixed: 'right',
      render: (_, r) =>
        canSave ? (
          <Button
            size="small"
            type="link"
            loading={busy === r.role}
            disabled={!edits[r.role]}
            onClick={() => void save(r)}
          >
            保存
          </Button>
        ) : null,
    },
  ];
  return (
    <Card data-testid="voucher-accounts" title="科目映射">
      <Typography.Paragraph type="secondary">
        修改只影响此后生成的凭证；已生成的凭证保留生成时的科目。
      </Typography.Paragraph>
      <Table<AccountRow>
        size="small"
        rowKey="role"
        loading={q.isFetching}
        // A user who may not save sees no 操作 column (docs/architecture.md "Lists fit their box").
        columns={canSave ? columns : columns.filter((c) => c.key !== 'op')}
        dataSource={q.data ?? []}
        pagination={false}
        scroll={{ x: 850 }}
      />
      <PackageAccounts />
    </Card>
  );
}
