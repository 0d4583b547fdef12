import { z } from 'zod';

/** The password messages, word for word as the product gives them (docs/protocol.md "Password rules"). */
export const PASSWORD_MESSAGES = {
  pattern: '密码必需由10到16位数字、大小写字母和特殊符号(!@#$%^&*_)组成',
  sameAsOld: '新密码不能与旧密码一致！',
  oldRequired: '请输入旧密码！',
  newRequiredField: '必填',
  newRequired: '请输入新密码！',
  confirmRequired: '请确认新密码！',
  mismatch: '确认密码与新密码不匹配！',
  formInvalid: '请检查密码数据完整性',
} as const;

export const PASSWORD_SPECIALS = '!@#$%^&*_';
export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[!@#$%^&*_])[\dA-Za-z!@#$%^&*_]{10,16}$/;

export function isStrongPassword(value: string): boolean {
  return PASSWORD_PATTERN.test(value);
}

export interface PasswordChange {
  pwd: string;
  newPwd: string;
  reNewPwd: string;
}

export type PasswordField = keyof PasswordChange;

/** First problem of a password change, in the order the dialog checks the fields. */
export function checkPasswordChange(
  v: Partial<PasswordChange>,
): { field: PasswordField; message: string } | null {
  if (!v.pwd) return { field: 'pwd', message: PASSWORD_MESSAGES.oldRequired };
  if (!v.newPwd) return { field: 'newPwd', message: PASSWORD_MESSAGES.newRequired };
  if (!isStrongPassword(v.newPwd)) return { field: 'newPwd', message: PASSWORD_MESSAGES.pattern };
  if (v.newPwd === v.pwd) return { field: 'newPwd', message: PASSWORD_MESSAGES.sameAsOld };
  if (!v.reNewPwd) return { field: 'reNewPwd', message: PASSWORD_MESSAGES.confirmRequired };
  if (v.reNewPwd !== v.newPwd) return { field: 'reNewPwd', message: PASSWORD_MESSAGES.mismatch };
  return null;
}

const str = z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string().max(200, '密码过长'));

export const passwordChangeSchema = z
  .object({ pwd: str, newPwd: str, reNewPwd: str })
  .superRefine((v, ctx) => {
    const problem = checkPasswordChange(v);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

/** A random password that satisfies the policy (for first start and administrator resets). */
export function generatePassword(length = 16): string {
  const lower = 'abcdefghijkmnpqrstuvwxyz';
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = lower + upper + digits + PASSWORD_SPECIALS;
  const pick = (set: string) => set[crypto.getRandomValues(new Uint32Array(1))[0]! % set.length]!;
  const chars = [pick(lower), pick(upper), pick(digits), pick(PASSWORD_SPECIALS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.getRandomValues(new Uint32Array(1))[0]! % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
