import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trimAntdCss } from '../../antd-css';

/** The selectors of a stylesheet that name `cls` (a class of antd). */
const naming = (css: string, cls: string) =>
  css.match(new RegExp(`\\.${cls}(?![a-z0-9-])`, 'g'))?.length ?? 0;

describe('antd.css trimmed to the components the app renders (antd-css.ts)', () => {
  const app = trimAntdCss(join(import.meta.dirname, '..'));

  it('drops the rules of components no module renders, and keeps the others', () => {
    expect(app.dropped).toBeGreaterThan(50_000);
    for (const unused of ['ant-color-picker', 'ant-tour', 'ant-mentions', 'ant-transfer', 'ant-carousel'])
      expect(naming(app.css, unused), unused).toBe(0);
    // Table renders Pagination, which renders Select; DatePicker uses the picker classes that
    // the unused Calendar shares.
    for (const used of [
      'ant-btn',
      'ant-table',
      'ant-pagination',
      'ant-select',
      'ant-picker',
      'ant-form-item',
    ])
      expect(naming(app.css, used), used).toBeGreaterThan(0);
    expect(app.unusedDirs).toContain('color-picker');
    expect(app.unusedDirs).not.toContain('table');
  });

  it('keeps what no component owns: motion, icons, keyframes', () => {
    expect(naming(app.css, 'anticon')).toBeGreaterThan(0);
    expect(naming(app.css, 'ant-zoom-big-appear')).toBeGreaterThan(0);
    expect(app.css).toMatch(/@keyframes/);
  });

  it('keeps only what a component the app renders can match, inside @media too', () => {
    const onlyButtons = mkdtempSync(join(tmpdir(), 'antd-css-'));
    writeFileSync(
      join(onlyButtons, 'Page.tsx'),
      "import { Button } from 'antd';\nexport const P = Button;\n",
    );
    const trimmed = trimAntdCss(onlyButtons);
    expect(naming(trimmed.css, 'ant-btn')).toBeGreaterThan(0);
    expect(naming(trimmed.css, 'ant-table')).toBe(0);
    expect(naming(trimmed.css, 'ant-col-xs-24')).toBe(0);
    expect(trimmed.css).not.toMatch(/@media[^{]*\{\s*\}/);
    expect(trimmed.css.length).toBeLessThan(app.css.length / 3);
  });

  it('refuses an app that names a class of a component it does not import (its rules would be gone)', () => {
    const naming = mkdtempSync(join(tmpdir(), 'antd-css-'));
    writeFileSync(join(naming, 'Page.tsx'), 'export const cls = "ant-color-picker-trigger";\n');
    expect(() => trimAntdCss(naming)).toThrow(/ant-color-picker-trigger/);
  });
});
