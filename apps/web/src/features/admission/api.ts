import { queryOptions } from '@tanstack/react-query';
import { ADMISSION_PATHS, type AdmissionSave, type AdmissionView } from '@portal/contract/admission';
import { BANK_PATHS, accountLabel, type BankAccountView } from '@portal/contract/bank';
import type { Page } from '@portal/contract/api';
import type { DocState } from '@portal/contract/workflow';
import { post, update, type UpdateOptions } from '../../shared/request/http';

export const ADMISSION_ROUTES = {
  list: '/factoring/config/admission',
  editor: '/factoring/config/admission-editor',
  view: '/factoring/config/admission-view',
} as const;

/** The admission cache keys; a save or a decision refreshes everything under `all`. */
export const admissionKeys = {
  all: ['custAdmission'] as const,
};

export interface Saved {
  bizCode: string;
  version: number;
  state: DocState;
}

const byCode = (bizCode: string) => ({ query: { bizCode } });

export const admissionApi = {
  view: (bizCode: string) => post<AdmissionView>(ADMISSION_PATHS.view, undefined, byCode(bizCode)),
  save: (body: AdmissionSave, opts: UpdateOptions) => update<Saved>(ADMISSION_PATHS.save, body, opts),
  remove: (bizCode: string) =>
    update(ADMISSION_PATHS.del, undefined, { ...byCode(bizCode), confirm: '确定要删除该客户准入单吗？' }),
};

/** The admission reads as query options. */
export const admissionQueries = {
  view: (bizCode: string) =>
    queryOptions({
      queryKey: [...admissionKeys.all, 'view', bizCode],
      queryFn: () => admissionApi.view(bizCode),
      enabled: !!bizCode,
    }),
  /** The chosen customer's own bank accounts, as a picker shows them. */
  customerAccounts: (compCode: string | undefined) =>
    queryOptions({
      queryKey: [...admissionKeys.all, 'accounts', compCode],
      queryFn: async () => {
        const page = await post<Page<BankAccountView>>(
          BANK_PATHS.list,
          { ownerType: 'customer', ownerCode: compCode, pageNum: 1, pageSize: 100 },
          { loading: false },
        );
        return page.list.map((a) => ({ value: a.bizCode, label: accountLabel(a) }));
      },
      enabled: !!compCode,
    }),
};
