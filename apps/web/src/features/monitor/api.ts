import { queryOptions } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  MONITOR_PATHS as P,
  type ForceLogout,
  type LoginUnlock,
  type OnlineSessionView,
  type OperLogDetail,
} from '@portal/contract/monitor';
import { post, update } from '../../shared/request/http';

/** Calls of the 系统监控 screens. */

const getOperLog = (id: number) => post<OperLogDetail>(P.operLogGet, { id });

export const unlockLogin = (body: LoginUnlock) => update(P.loginLogUnlock, body);

export const forceLogout = (s: OnlineSessionView) =>
  update(P.onlineForceLogout, { sessionId: s.sessionId } satisfies ForceLogout, {
    confirm: `确定要强退用户「${s.realName}（${s.userName}）」的这个会话吗？强退后该会话需重新登录。`,
  });

/** The search form's 日期 range as the list's atStart/atEnd. */
export function dateRangeFilters(values: Record<string, unknown>): Record<string, unknown> {
  const { at, ...rest } = values as { at?: [Dayjs, Dayjs] | null };
  return { ...rest, atStart: at?.[0]?.format('YYYY-MM-DD'), atEnd: at?.[1]?.format('YYYY-MM-DD') };
}

/** The keys of the 监控 queries. */
const monitorKeys = {
  operLog: (id: number) => ['monitor', 'operLog', id] as const,
};

/** The 监控 reads as query options. */
export const monitorQueries = {
  /** One audit row with its changed fields. */
  operLog: (id: number) => queryOptions({ queryKey: monitorKeys.operLog(id), queryFn: () => getOperLog(id) }),
};
