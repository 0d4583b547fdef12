import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { Auth } from '../../../shared/permission/Auth';
import { change, crmQueries } from '../api';
import { SAVE } from './tab-kit';

/** One record per customer (开票信息, 企业介绍, …), read by compCode. */
export function useRecord<T>(path: string, compCode: string | undefined) {
  return useQuery(crmQueries.record<T>(path, compCode));
}

export function SaveBar({ readOnly, saving }: { readOnly: boolean; saving: boolean }) {
  if (readOnly) return null;
  return (
    <Auth code={SAVE}>
      <Button type="primary" htmlType="submit" loading={saving}>
        保存
      </Button>
    </Auth>
  );
}

/** Saves a one-per-customer record with the version read, then reloads it. */
export function useRecordSave(path: string, viewPath: string, compCode: string | undefined) {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const save = async (body: Record<string, unknown>, version: number | undefined) => {
    setSaving(true);
    try {
      const r = await change(path, { ...body, compCode, ...(version !== undefined ? { version } : {}) });
      if (r.ok)
        await queryClient.invalidateQueries({ queryKey: crmQueries.record(viewPath, compCode).queryKey });
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
}
