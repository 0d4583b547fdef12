import { z } from 'zod';
import { optionalText, text } from './fields';

/** The login payload (docs/protocol.md "Sessions"); userType is always '2' (internal staff). */
export const loginSchema = z.object({
  userName: text('用户名', 64),
  passWord: z.string({ error: '密码不能为空' }).min(1, '密码不能为空').max(200, '密码过长'),
  userType: z.literal('2', { error: '用户类型不正确' }),
  vCode: optionalText('验证码', 16, { nfkc: true }),
  vCodeToken: optionalText('验证码标识', 100),
  browserID: optionalText('浏览器标识', 200),
  code: optionalText('code', 200),
  isPassing: z.unknown().optional(),
  isCode: z.unknown().optional(),
});
export type LoginPayload = z.input<typeof loginSchema>;

export const menuButtonsSchema = z.object({ menuCode: text('菜单编码', 100) });

export * from './session';
