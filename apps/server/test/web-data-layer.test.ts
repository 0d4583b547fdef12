import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * A web feature declares its queries and mutations in its api.ts (docs/architecture.md "The web
 * data layer"); lint refuses a screen that spells a key or its own options. This runs the
 * repository's lint configuration on planted screens, so a rule that stopped applying fails here.
 */
const repo = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: repo });

async function dataLayerErrors(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: resolve(repo, file) });
  return result!.messages.filter((m) => m.message.includes('The web data layer')).length;
}

const screen = (body: string) =>
  [
    "import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';",
    "import { post } from '../../shared/request/http';",
    'export function Probe({ code }: { code: string }) {',
    body,
    '  return null;',
    '}',
    '',
  ].join('\n');

const inlineQuery = screen(
  "  const q = useQuery({ queryKey: ['probe', code], queryFn: () => post('/probe', { code }) });\n  void q;",
);
const inlineOptions = screen(
  "  const o = queryOptions({ queryKey: ['probe'], queryFn: () => post('/probe', {}) });\n  void o;",
);
const inlineMutation = screen(
  "  const m = useMutation({ mutationFn: () => post('/probe', {}) });\n  void m;",
);
const fromApi = [
  "import { useQuery } from '@tanstack/react-query';",
  "import { probeQueries } from './api';",
  'export function Probe({ code }: { code: string }) {',
  '  const q = useQuery({ ...probeQueries.view(code), gcTime: 0 });',
  '  void q;',
  '  return null;',
  '}',
  '',
].join('\n');

// Loading the lint configuration (typescript-eslint) takes seconds on a busy machine.
describe('the web data layer', { timeout: 120_000 }, () => {
  it('refuses a screen that spells a query key, query options or a mutation', async () => {
    const file = 'apps/web/src/features/loan/ProbePage.tsx';
    expect(await dataLayerErrors(file, inlineQuery)).toBeGreaterThanOrEqual(1);
    expect(await dataLayerErrors(file, inlineOptions)).toBeGreaterThanOrEqual(1);
    expect(await dataLayerErrors(file, inlineMutation)).toBe(1);
  });

  it('lets api.ts declare them and a screen use them', async () => {
    expect(await dataLayerErrors('apps/web/src/features/loan/api.ts', inlineOptions)).toBe(0);
    expect(await dataLayerErrors('apps/web/src/features/loan/ProbePage.tsx', fromApi)).toBe(0);
  });
});
