import {
  BUYBACK_PATHS,
  type BuybackQuote,
  type BuybackSettleView,
  type BuybackView,
} from '@portal/contract/buyback';
import { post, update } from '../../shared/request/http';

/** 回购 screens (docs/buyback.md). */
export const BUYBACK_ROUTES = {
  list: '/factoring/accounts/buyback',
  editor: '/factoring/accounts/buyback-editor',
  view: '/factoring/accounts/buyback-view',
  settleView: '/factoring/accounts/buyback-settle-view',
} as const;
const byCode = (buybackBizCode: string) => ({ query: { buybackBizCode } });

/** The keys of the 回购 queries: a change invalidates `all`. */
export const buybackKeys = {
  all: ['buyback'] as const,
};

/** The 回购 calls as the screens use them. */
export const buybackApi = {
  view: (code: string) => post<BuybackView>(BUYBACK_PATHS.viewBaseInfo, undefined, byCode(code)),
  quote: (contBizCode: string, buybackDate: string) =>
    post<BuybackQuote>(BUYBACK_PATHS.quote, undefined, { query: { contBizCode, buybackDate } }),
  remove: (code: string) =>
    update(BUYBACK_PATHS.deleteInfo, undefined, { ...byCode(code), confirm: '确定要删除该回购单吗？' }),
  rushRed: (code: string, reason: string) =>
    update(
      BUYBACK_PATHS.rushRed,
      { reason },
      { ...byCode(code), confirm: '确定要冲红该回购单吗？合同的还款计划将恢复，合同重新计息。' },
    ),
  settleView: (code: string) =>
    post<BuybackSettleView>(BUYBACK_PATHS.settleView, undefined, { query: { settleBizCode: code } }),
};
