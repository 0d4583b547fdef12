import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Space } from 'antd';
import { BIZDATE_PATHS, bizDateSaveSchema } from '@portal/contract/bizdate';
import { update } from '../request/http';
import { useBizDate } from './api';

/**
 * Moving the business date (docs/business-date.md "Moving the date"): one control for the two
 * screens that offer it (营业日与日终 and 参数设置). It checks the date with the server's schema,
 * asks for a confirmation and calls the one route that moves the date, whose rules (not back past
 * a posting), audit row and day-end are the server's.
 */
export function BizDateMove({ onMoved, extra }: { onMoved?: () => void; extra?: ReactNode }) {
  const qc = useQueryClient();
  const current = useBizDate();
  const date = current.data?.businessDate;
  const [next, setNext] = useState('');
  const [error, setError] = useState<string>();
  const move = async () => {
    const parsed = bizDateSaveSchema.safeParse({ businessDate: next });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    const r = await update(BIZDATE_PATHS.save, parsed.data, {
      confirm: `此操作将把营业日由 ${date ?? ''} 改为 ${parsed.data.businessDate}，并运行日终！ 是否继续？`,
    }).catch(() => null);
    if (r?.ok) {
      setNext('');
      void qc.invalidateQueries({ queryKey: ['bizdate'] });
      onMoved?.();
    }
  };
  return (
    <Space align="start" style={{ marginTop: 12 }}>
      <Form.Item validateStatus={error ? 'error' : ''} help={error} style={{ marginBottom: 0 }}>
        <Input
          aria-label="新营业日"
          addonBefore="新营业日"
          placeholder="YYYY-MM-DD"
          style={{ width: 260 }}
          value={next}
          onChange={(e) => {
            setNext(e.target.value.trim());
            setError(undefined);
          }}
        />
      </Form.Item>
      <Button type="primary" disabled={!next} onClick={() => void move()}>
        设置营业日
      </Button>
      {extra}
    </Space>
  );
}
