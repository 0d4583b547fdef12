import type { Page } from 'playwright-core';
import { PASSWORD } from '../load/server';

/** Signs in as the benchmark's admin on the login page; resolves once the dashboard is up. */
export async function signInAsAdmin(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByPlaceholder('用户名').fill('admin');
  await page.getByPlaceholder('密码').fill(PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.getByTestId('dashboard').waitFor({ timeout: 60_000 });
}
