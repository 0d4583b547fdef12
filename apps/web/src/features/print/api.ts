import { queryOptions } from '@tanstack/react-query';
import {
  PRINT_PATHS,
  type BizType,
  type PrintField,
  type TemplateSave,
  type TemplateView,
} from '@portal/contract/print';
import { post, update, type UpdateResult } from '../../shared/request/http';

/** The template calls `/ft/api/print` used by the template screens. */

export const PRINT_LIST_PATH = '/factoring/config/print';
export const PRINT_EDITOR_PATH = '/factoring/config/print-editor';

/** The keys of the template queries; `list` is the shared list's key of the template list. */
export const printKeys = {
  view: (bizCode: string) => ['print', 'view', bizCode] as const,
  info: (bizType: BizType) => ['print', 'info', bizType] as const,
  cores: ['print', 'cores'] as const,
  list: ['list', PRINT_PATHS.list] as const,
};

export interface Catalogue {
  bizType: BizType;
  label: string;
  fields: PrintField[];
  lists: { key: string; label: string; fields: PrintField[] }[];
}

export interface Option {
  code: string;
  label: string;
}

const viewTemplate = (bizCode: string) =>
  post<TemplateView>(PRINT_PATHS.view, undefined, { query: { bizCode } });
const catalogueOf = (bizType: BizType) =>
  post<Catalogue>(PRINT_PATHS.info, undefined, { query: { bizType }, loading: false });
const coreCompanies = () => post<Option[]>(PRINT_PATHS.getCoreComp, undefined, { loading: false });

/** The template reads as query options. */
export const printQueries = {
  /** The template being edited, read afresh each time the editor opens (never from the cache). */
  view: (bizCode: string | undefined) =>
    queryOptions({
      queryKey: printKeys.view(bizCode ?? ''),
      queryFn: () => viewTemplate(bizCode!),
      enabled: !!bizCode,
      staleTime: 0,
      gcTime: 0,
    }),
  /** The placeholders of a document type. */
  catalogue: (bizType: BizType) =>
    queryOptions({ queryKey: printKeys.info(bizType), queryFn: () => catalogueOf(bizType) }),
  cores: () => queryOptions({ queryKey: printKeys.cores, queryFn: coreCompanies, staleTime: 60_000 }),
};

export function saveTemplate(body: TemplateSave): Promise<UpdateResult<{ bizCode: string }>> {
  return update<{ bizCode: string }>(PRINT_PATHS.save, body);
}

export function setTemplateState(bizCode: string, enable: boolean): Promise<UpdateResult<null>> {
  return update<null>(enable ? PRINT_PATHS.enable : PRINT_PATHS.disable, undefined, {
    query: { bizCode },
    confirm: enable ? '确认启用该模板？' : '确认停用该模板？停用后将不能用它打印',
  });
}

export function deleteTemplate(bizCode: string): Promise<UpdateResult<null>> {
  return update<null>(PRINT_PATHS.delete, undefined, { query: { bizCode }, confirm: '确认删除打印模板？' });
}

export function editorUrl(bizCode?: string): string {
  return bizCode ? `${PRINT_EDITOR_PATH}?bizCode=${encodeURIComponent(bizCode)}` : PRINT_EDITOR_PATH;
}
