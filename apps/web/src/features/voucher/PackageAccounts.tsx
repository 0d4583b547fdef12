import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Input, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { buttonCode } from '@portal/contract/menus';
import { ACCOUNT_ROLE_LABELS, VOUCHER_MENUS } from '@portal/contract/voucher';
import { PACKAGE_PATHS, type PackageAccountRow } from '@portal/contract/voucher-package';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { voucherKeys, voucherQueries } from './api';

interface Edit {
  yonyouCode: string;
  kingdeeCode: string;
  aux: boolean;
}

/**
 * 财务软件科目: the account codes of 用友 U8 / T+ and 金蝶 K/3 Cloud for each use, and whether its
 * lines carry the customer auxiliary there; read by 导出到财务软件 (docs/accounting.md "Export to
 * the accounting package"). Empty: the same code as ours.
 */
export function PackageAccounts() {
  const qc = useQueryClient();
  const canSave = useButtons(VOUCHER_MENUS.accounts).has(buttonCode(VOUCHER_MENUS.accounts, 'save'));
  const q = useQuery(voucherQueries.packageAccounts());
  const [edits, setEdits] = useState<Record<string, Edit>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const valueOf = (r: PackageAccountRow): Edit =>
    edits[r.role] ?? { yonyouCode: r.yonyouCode ?? '', kingdeeCode: r.kingdeeCode ?? '', aux: r.aux };
  const edit = (r: PackageAccountRow, patch: Partial<Edit>) =>
    setEdits((e) => ({ ...e, [r.role]: { ...valueOf(r), ...patch } }));
  const label = (r: PackageAccountRow) => ACCOUNT_ROLE_LABELS[r.role];
  const save = async (r: PackageAccountRow) => {
    setBusy(r.role);
    try {
      const saved = await update<PackageAccountRow>(
        PACKAGE_PATHS.accountSave,
        { role: r.role, ...valueOf(r), version: r.version },
        { confirm: `此操作将保存“${label(r)}”的财务软件科目！ 是否继续？` },
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
  const codeInput = (r: PackageAccountRow, key: 'yonyouCode' | 'kingdeeCode', title: string) =>
    canSave ? (
      <Input
        aria-label={`${label(r)}${title}`}
        value={valueOf(r)[key]}
        placeholder={r.code}
        maxLength={40}
        onChange={(e) => edit(r, { [key]: e.target.value })}
      />
    ) : (
      (r[key] ?? r.code)
    );
  const columns: TableColumnsType<PackageAccountRow> = [
    { title: '用途', key: 'role', width: 200, render: (_, r) => label(r) },
    { title: '本系统科目', key: 'code', width: 160, render: (_, r) => `${r.code} ${r.name}` },
    {
      title: '用友科目编码',
      key: 'yonyouCode',
      width: 160,
      render: (_, r) => codeInput(r, 'yonyouCode', '用友科目编码'),
    },
    {
      title: '金蝶科目编码',
      key: 'kingdeeCode',
      width: 160,
      render: (_, r) => codeInput(r, 'kingdeeCode', '金蝶科目编码'),
    },
    {
      title: '辅助核算（客户/合同）',
      key: 'aux',
      width: 150,
      render: (_, r) => (
        <Checkbox
          aria-label={`${label(r)}辅助核算`}
          checked={valueOf(r).aux}
          disabled={!canSave}
          onChange={(e) => edit(r, { aux: e.target.checked })}
        />
      ),
    },
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
    <div data-testid="package-accounts" style={{ marginTop: 24 }}>
      <Typography.Title level={5}>财务软件科目（导出到财务软件时使用）</Typography.Title>
      <Typography.Paragraph type="secondary">
        留空即与本系统科目编码相同；修改对此后的每次导出生效，已生成的凭证不变。
      </Typography.Paragraph>
      <Table<PackageAccountRow>
        size="small"
        rowKey="role"
        loading={q.isFetching}
        // A user who may not save sees no 操作 column (docs/architecture.md "Lists fit their box").
        columns={canSave ? columns : columns.filter((c) => c.key !== 'op')}
        dataSource={q.data ?? []}
        pagination={false}
        scroll={{ x: 920 }}
      />
    </div>
  );
}
