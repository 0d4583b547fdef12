import { queryOptions } from '@tanstack/react-query';
import { RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import { post, update, type UpdateResult } from '../../shared/request/http';
import type { RuleSaveBody } from './rule-form';

/** The calls `/ft/api/businessCfg/ruler` used by the rule screens. */

export const RULER_MENU = 'ft-ruler';
export const RULER_LIST_PATH = '/factoring/config/ruler';
export const RULER_EDITOR_PATH = '/factoring/config/ruler-editor';
export const DELETE_RULE_CONFIRM = '确认删除计息规则？';

/** The keys of the rule queries; `list` is ListPage's default key prefix for the rule list. */
export const rulerKeys = {
  list: ['list', RULER_PATHS.list] as const,
  view: (bizCode: string) => ['ruler', 'view', bizCode] as const,
};

function viewRule(bizCode: string): Promise<RuleView> {
  return post<RuleView>(RULER_PATHS.view, undefined, { query: { bizCode } });
}

/** The rule reads as query options. */
export const rulerQueries = {
  /** The rule being edited, read afresh each time the editor opens (never from the cache). */
  view: (bizCode: string | undefined) =>
    queryOptions({
      queryKey: rulerKeys.view(bizCode ?? ''),
      queryFn: () => viewRule(bizCode!),
      enabled: !!bizCode,
      staleTime: 0,
      gcTime: 0,
    }),
};

/** Save (create without bizCode, update with bizCode + version); 操作成功！ on success. */
export function saveRule(body: RuleSaveBody): Promise<UpdateResult<{ bizCode: string }>> {
  return update<{ bizCode: string }>(RULER_PATHS.save, body);
}

/** Delete after the confirmation 确认删除计息规则？ (cancelling does nothing). */
export function deleteRule(bizCode: string): Promise<UpdateResult<null>> {
  return update<null>(RULER_PATHS.del, undefined, { query: { bizCode }, confirm: DELETE_RULE_CONFIRM });
}

export function editorUrl(bizCode?: string): string {
  return bizCode ? `${RULER_EDITOR_PATH}?bizCode=${encodeURIComponent(bizCode)}` : RULER_EDITOR_PATH;
}
