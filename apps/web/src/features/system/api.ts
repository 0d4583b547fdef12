import { queryOptions } from '@tanstack/react-query';
import { SERVER_MONITOR_PATHS, type ServerStatus } from '@portal/contract/server-monitor';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { post } from '../../shared/request/http';

/** The keys of the 系统 queries (参数设置, 服务监控). */
export const systemKeys = {
  params: ['system', 'params'] as const,
  serverStatus: ['system', 'server-status'] as const,
};

/** The 系统 reads as query options. */
export const systemQueries = {
  params: () =>
    queryOptions({ queryKey: systemKeys.params, queryFn: () => post<SysParamsView>(SYSPARAM_PATHS.get) }),
  /** The serving process's figures, read again every `refetchInterval` ms. */
  serverStatus: (refetchInterval: number) =>
    queryOptions({
      queryKey: systemKeys.serverStatus,
      queryFn: () => post<ServerStatus>(SERVER_MONITOR_PATHS.status),
      refetchInterval,
    }),
};
