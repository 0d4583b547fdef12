import { z } from 'zod';
import { code, oneOf, optionalCode, optionalText, text, version } from './fields';
import { listSchema } from './list';
import { interestRuleCalc, METHODS } from './plan/rule';

/** Interest rules, and a contract's own business config, on one path set. */
export const RULER_PATHS = {
  list: '/ft/api/businessCfg/ruler/list',
  view: '/ft/api/businessCfg/ruler/view',
  dict: '/ft/api/businessCfg/ruler/dict',
  save: '/ft/api/businessCfg/ruler/save',
  del: '/ft/api/businessCfg/ruler/del',
} as const;

export const RULE_STATES = ['enabled', 'disabled'] as const;
export const RULE_STATE_LABELS = { enabled: '启用', disabled: '停用' } as const;

/**
 * A rule (计息规则). Without `contBizCode` it is a catalogue rule that contracts pick; with it, it
 * is that contract's own business config (业务配置), a copy the contract may adjust.
 */
export const ruleSaveSchema = interestRuleCalc.extend({
  bizCode: optionalCode('规则编号'),
  version: version.optional(),
  name: text('规则名称', 60),
  state: oneOf('状态', RULE_STATES).default('enabled'),
  contBizCode: optionalCode('合同编号'),
  remark: optionalText('备注', 500, { multiline: true }),
});
export type RuleSave = z.input<typeof ruleSaveSchema>;

export const ruleListSchema = listSchema(
  {
    name: optionalText('规则名称', 60),
    method: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      oneOf('还款方式', METHODS).optional(),
    ),
    state: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      oneOf('状态', RULE_STATES).optional(),
    ),
    contBizCode: optionalCode('合同编号'),
  },
  ['bizCode', 'name', 'annualRate', 'updatedAt'],
);

export const ruleViewQuery = z.object({
  bizCode: optionalCode('规则编号'),
  contBizCode: optionalCode('合同编号'),
});
export const ruleDelQuery = z.object({ bizCode: code('规则编号') });

export interface RuleView extends z.output<typeof interestRuleCalc> {
  bizCode: string;
  version: number;
  name: string;
  state: (typeof RULE_STATES)[number];
  contBizCode: string | null;
  remark: string | null;
  updatedAt: string;
}
