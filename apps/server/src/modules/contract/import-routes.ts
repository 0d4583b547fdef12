import { CONTRACT_PATHS } from '@portal/contract/contract';
import { button } from '@portal/contract/menus';
import type { ModuleContext } from '../../platform/module';
import { badInput, notFound } from '../../platform/errors';
import { readXlsxUpload } from '../../platform/xlsx';
import { rowVisibility } from '../../platform/auth/row-scope';
import { getCredit } from '../credit';
import { previewContractReceivables, previewPlanExcel } from './imports';
import { CHG, EDITORS, INFO } from './route-perms';

/** The contract form's uploads (receivables, a custom plan): previews only, nothing saved. */
export function registerImportRoutes({ api, db, clock }: ModuleContext): void {
  api.post(
    CONTRACT_PATHS.importReceivables,
    {
      perm: [button(INFO, 'import'), ...EDITORS],
      scope: { none: 'previews an upload; the credit it may name is checked by the handler' },
      envelope: false,
      summary: 'xlsx (multipart "file"; optional field platCredBizCode) -> per-row preview; nothing saved',
    },
    async ({ req, user }) => {
      const { buf, fields } = await readXlsxUpload(req);
      let creditId: number | undefined;
      if (fields.platCredBizCode) {
        if (!/^\d{12}$/.test(fields.platCredBizCode)) throw badInput('平台授信编号必须是12位数字编号');
        if ((await rowVisibility(db, 'credit', fields.platCredBizCode, user)) === 'hidden')
          throw notFound('平台授信');
        creditId = (await getCredit(db, fields.platCredBizCode)).id;
      }
      return previewContractReceivables(db, buf, clock.today(), creditId);
    },
  );
  api.post(
    CONTRACT_PATHS.resolvePlanExcel,
    {
      perm: [...EDITORS, button(CHG, 'save'), button(CHG, 'add')],
      scope: { none: 'computes a plan from an uploaded sheet; reads nothing stored' },
      envelope: false,
      summary:
        'xlsx (multipart "file"; optional fields financingAmount, startDate) -> per-row preview; nothing saved',
    },
    async ({ req }) => {
      const { buf, fields } = await readXlsxUpload(req);
      return previewPlanExcel(buf, {
        financingAmount: fields.financingAmount,
        startDate: fields.startDate,
      });
    },
  );
}
