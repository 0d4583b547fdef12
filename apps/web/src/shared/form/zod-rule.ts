import type { ComponentProps } from 'react';
import type { Form, FormRule } from 'antd';
import type { z } from 'zod';

const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

function firstMessage(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(blankToUndefined(value));
  return result.success ? undefined : (result.error.issues[0]?.message ?? '格式不正确');
}

/**
 * One rule, two places (docs/architecture.md "The request path"): a form field is checked by the very zod schema
 * the server validates the body with (packages/contract), so the browser refuses 12.345, 0 or −5
 * with the schema's own Chinese message before any 是否继续？ confirmation, and the server would
 * answer the same words.
 *
 * An empty field (antd gives undefined, '' or null) is checked as absent, so a required field says
 * `…不能为空` and an optional one passes. The schema's output (trimmed, normalised) is not written
 * back: the form keeps what the user typed and the server normalises it the same way.
 */
export function zodRule(schema: z.ZodType): FormRule {
  return {
    // Only marks the label with antd's asterisk: a rule with a validator runs no required check
    // of its own, so the message is always the schema's.
    required: !schema.safeParse(undefined).success,
    validator: (_rule, value: unknown) => {
      const message = firstMessage(schema, value);
      return message === undefined ? Promise.resolve() : Promise.reject(new Error(message));
    },
  };
}

/** What `Form.List` takes as a rule (a validator only). */
export type ListRule = NonNullable<ComponentProps<typeof Form.List>['rules']>[number];

/**
 * A `Form.List`'s rule from an array schema: the list's own checks only (不能为空, at most N); each
 * row's fields carry their own rules. The message is the schema's, as the server would answer it.
 */
export function listRule(schema: z.ZodType): ListRule {
  return {
    validator: (_rule, value: unknown) => {
      const r = schema.safeParse(value ?? []);
      const own = r.success ? undefined : r.error.issues.find((i) => i.path.length === 0);
      return own ? Promise.reject(new Error(own.message)) : Promise.resolve();
    },
  };
}

/**
 * The rules of every field of an object schema, by field name:
 * `const rules = fieldRules(incomeItemSchema)` then `<Form.Item name="amount" rules={rules.amount}>`.
 */
export function fieldRules<S extends z.ZodRawShape>(schema: z.ZodObject<S>): { [K in keyof S]: FormRule[] } {
  const out: Partial<Record<keyof S, FormRule[]>> = {};
  for (const key of Object.keys(schema.shape) as (keyof S & string)[]) {
    out[key] = [zodRule(schema.shape[key] as z.ZodType)];
  }
  return out as { [K in keyof S]: FormRule[] };
}

type ParseResult = ReturnType<z.ZodType['safeParse']>;

/**
 * The rule of a check the whole schema makes about one field from the others (到期日必须晚于起始日,
 * 变更后额度不能为空 for 提额): the form's values are parsed with the object schema and its issues
 * on `field` that the field's own schema does not raise are the field's error. zod runs such checks
 * only once every field passes, so they show from the first save at which the rest is valid.
 *
 * `cache` lets the rules of one form share one parse per state of the form: antd's store object is
 * replaced on every change, so the same object means the same values.
 */
export function crossFieldRule<S extends z.ZodRawShape>(
  schema: z.ZodObject<S>,
  field: keyof S & string,
  cache: { store?: unknown; result?: ParseResult } = {},
): FormRule {
  const parse = (store: unknown): ParseResult => {
    if (cache.store !== store || !cache.result) {
      const values = Object.fromEntries(
        Object.entries((store as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [
          k,
          blankToUndefined(v),
        ]),
      );
      cache.store = store;
      cache.result = schema.safeParse(values);
    }
    return cache.result;
  };
  const render: Extract<FormRule, (...args: never[]) => unknown> = (form) => ({
    validator: (_rule, value: unknown) => {
      const result = parse(form.getFieldsValue(true));
      if (result.success) return Promise.resolve();
      const own = firstMessage(schema.shape[field] as z.ZodType, value);
      const issue = result.error.issues.find(
        (i) => i.path.length === 1 && i.path[0] === field && i.message !== own,
      );
      return issue ? Promise.reject(new Error(issue.message)) : Promise.resolve();
    },
  });
  return render;
}

/**
 * The rules of a whole form's schema: each field's own rule and, after it, the object schema's
 * checks about that field (see crossFieldRule). For an object schema that is the form's body; the
 * rows of a list use fieldRules of their item schema.
 */
export function formRules<S extends z.ZodRawShape>(schema: z.ZodObject<S>): { [K in keyof S]: FormRule[] } {
  const own = fieldRules(schema);
  const cache = {};
  const out: Partial<Record<keyof S, FormRule[]>> = {};
  for (const key of Object.keys(schema.shape) as (keyof S & string)[]) {
    out[key] = [...own[key], crossFieldRule(schema, key, cache)];
  }
  return out as { [K in keyof S]: FormRule[] };
}
