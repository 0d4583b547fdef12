import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { InitialLogin } from './module';

/** Under DATA_DIR: the users the first start created and their passwords (README "First start"). */
export const PASSWORD_FILE = 'initial-passwords.txt';

const shown = (l: InitialLogin) => l.password ?? '（ADMIN_PASSWORD 所设）';

/** One line per user: name, password, real name, duty (tab-separated, easy to read and to parse). */
export function passwordFileText(logins: readonly InitialLogin[]): string {
  return (
    '# 首次启动创建的用户：用户名\t密码\t姓名\t职责（请登录后修改密码）\n' +
    logins.map((l) => `${l.userName}\t${shown(l)}\t${l.realName}\t${l.duty}\n`).join('')
  );
}

/** Reads back the passwords of the file (tests, scripts): user name -> password. */
export function parsePasswordFile(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [user, password] = line.split('\t');
    if (user && password) out.set(user, password);
  }
  return out;
}

/**
 * Written whole or not at all (a temporary file renamed over), readable by the owner only. Called
 * before the first start commits: if that commit then fails, the next start writes it again.
 */
export function writePasswordFile(file: string, logins: readonly InitialLogin[]): void {
  if (!logins.some((l) => l.password !== undefined)) return;
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, passwordFileText(logins), { mode: 0o600 });
  renameSync(tmp, file);
}

export function firstStartBanner(logins: readonly InitialLogin[], file: string): string {
  if (logins.length === 0) return '\n  First start: done (no user created)\n';
  const width = Math.max(...logins.map((l) => l.userName.length));
  const rows = logins.map((l) => `    ${l.userName.padEnd(width)}  ${shown(l)}  ${l.realName}，${l.duty}`);
  const saved = logins.some((l) => l.password !== undefined) ? `  (also written to ${file})\n` : '';
  return `\n  First start: these users can sign in\n${rows.join('\n')}\n${saved}`;
}
