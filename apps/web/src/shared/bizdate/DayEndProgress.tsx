import { useQuery } from '@tanstack/react-query';
import { Progress, Space, Typography } from 'antd';
import { progressPercent, progressText } from '@portal/contract/jobs';
import { daysBetween } from '@portal/contract/plan/dates';
import { bizDateQueries } from './api';

/**
 * The day-end running now, polled every second while this screen waits for one (a move of the
 * date, 运行日终): its phase and how many contracts of how many are done, as the running server
 * last wrote them (docs/business-date.md "Progress"); during a forward move's catch-up also which
 * day of how many.
 */
export function DayEndProgress({ from, to }: { from: string; to: string }) {
  const q = useQuery(bizDateQueries.progress(from, to));
  const running = q.data?.running;
  if (!running || running.businessDate < from || running.businessDate > to) return null;
  const total = daysBetween(from, to);
  const k = daysBetween(from, running.businessDate);
  const p = running.progress;
  const percent = p ? progressPercent(p) : null;
  return (
    <Space data-testid="day-end-progress" direction="vertical" size={0}>
      {total > 1 && k > 0 ? (
        <Typography.Text>
          正在运行 {running.businessDate} 的日终（{k} / {total}）
        </Typography.Text>
      ) : null}
      {percent !== null ? <Progress percent={percent} size="small" style={{ width: 240 }} /> : null}
      <Typography.Text type="secondary">
        {p ? progressText(p) : `${running.businessDate} 日终运行中`}
      </Typography.Text>
    </Space>
  );
}
