import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Space } from 'antd';
import {
  BIZDATE_PATHS,
  bizDateSaveSchema,
  MAX_FORWARD_DAYS,
  tooFarForwardMessage,
} from '@portal/contract/bizdate';
import { daysBetween } from '@portal/contract/plan/dates';
import { update } from '../request/http';
import { bizDateKeys, useBizDate } from './api';
import { DayEndProgress } from './DayEndProgress';

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
  const [moving, setMoving] = useState<{ from: string; to: string }>();
  const move = async () => {
    const parsed = bizDateSaveSchema.safeParse({ businessDate: next });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    const to = parsed.data.businessDate;
    const days = date && to > date ? daysBetween(date, to) : 0;
    // The server's bound, before the confirmation asks about it.
    if (date && days > MAX_FORWARD_DAYS) {
      setError(tooFarForwardMessage(date));
      return;
    }
    // Shown only while a day-end runs (not while the dialog asks): the days passed over, or the
    // new date's own (a move back or to the same day runs that one).
    setMoving(date ? { from: days > 0 ? date : to, to } : undefined);
    const r = await update(BIZDATE_PATHS.save, parsed.data, {
      confirm:
        days > 1
          ? `此操作将把营业日由 ${date ?? ''} 改为 ${to}，并依次运行其间 ${days} 天的日终！ 是否继续？`
          : `此操作将把营业日由 ${date ?? ''} 改为 ${to}，并运行日终！ 是否继续？`,
    })
      .catch(() => null)
      .finally(() => setMoving(undefined));
    if (r?.ok) {
      setNext('');
      void qc.invalidateQueries({ queryKey: bizDateKeys.all });
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
      {moving ? <DayEndProgress from={moving.from} to={moving.to} /> : null}
    </Space>
  );
}
