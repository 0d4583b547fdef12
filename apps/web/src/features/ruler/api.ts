import { RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import { post, update, type UpdateResult } from '../../shared/request/http';
import type { RuleSaveBody } from './rule-form';

/** The calls `/ft/api/businessCfg/ruler` used by the rule screens. */

export const RULER_MENU = 'ft-ruler';
export const RULER_LIST_PATH = '/factoring/config/ruler';
export const RULER_EDITOR_PATH = '/factoring/config/ruler-editor';
export const DELETE_RULE_CONFIRM = '确认删除计息规则？';

/** react-query key prefix of the list (ListPage's default key for a path source). */
export const rulerListKey = ['list', RULER_PATHS.list] as const;
export const ruleViewKey = (bizCode: string) => ['ruler', 'view', bizCode] as const;

export function viewRule(bizCode: string): Promise<RuleView> {
  return post<RuleView>(RULER_PATHS.view, undefined, { query: { bizCode } });
}

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
