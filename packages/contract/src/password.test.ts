import { describe, expect, it } from 'vitest';
import {
  checkPasswordChange,
  generatePassword,
  isStrongPassword,
  PASSWORD_MESSAGES as M,
  passwordChangeSchema,
} from './password';

describe('password rules', () => {
  it.each([
    [{ pwd: '', newPwd: 'Abcdef12345!', reNewPwd: 'Abcdef12345!' }, M.oldRequired],
    [{ pwd: 'old', newPwd: '', reNewPwd: '' }, M.newRequired],
    [{ pwd: 'old', newPwd: 'abcdef12345!', reNewPwd: '' }, M.pattern],
    [{ pwd: 'old', newPwd: 'Abc12!', reNewPwd: '' }, M.pattern],
    [{ pwd: 'old', newPwd: 'Abcdef12345!Abcdef', reNewPwd: '' }, M.pattern],
    [{ pwd: 'old', newPwd: 'Abcdef12345+', reNewPwd: '' }, M.pattern],
    [{ pwd: 'Abcdef12345!', newPwd: 'Abcdef12345!', reNewPwd: 'Abcdef12345!' }, M.sameAsOld],
    [{ pwd: 'old', newPwd: 'Abcdef12345!', reNewPwd: '' }, M.confirmRequired],
    [{ pwd: 'old', newPwd: 'Abcdef12345!', reNewPwd: 'Abcdef12345?' }, M.mismatch],
  ])('%o -> %s', (input, message) => {
    expect(checkPasswordChange(input)?.message).toBe(message);
    const parsed = passwordChangeSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it('accepts a valid change and the boundary lengths 10 and 16', () => {
    expect(checkPasswordChange({ pwd: 'old', newPwd: 'Abcdef123!', reNewPwd: 'Abcdef123!' })).toBeNull();
    expect(isStrongPassword('Abcdefgh12345_!@')).toBe(true);
    expect(isStrongPassword('Abcdefg1!')).toBe(false);
  });

  it('generates passwords that satisfy the policy', () => {
    for (let i = 0; i < 200; i++) expect(isStrongPassword(generatePassword())).toBe(true);
  });
});
