import { CONTRACT_PATHS } from '@portal/contract/contract';
import { button } from '@portal/contract/menus';
import type { ModuleContext } from '../../platform/module';
import { badInput, notFound } from '../../platform/errors';
import { readXlsxUpload } from '../../platform/xlsx';
import { contentDisposition, XLSX_MIME } from '../../platform/http/download';
import { OPENING_MODES, OPENING_TEMPLATE_FILE_NAME, type OpeningMode } from '@portal/contract/opening';
import { importOpening, openingTemplate, previewOpening } from './opening';
import { openingSteps } from './opening-steps';
import { rowVisibility } from '../../platform/auth/row-scope';
import { getCredit } from '../credit';
import { previewContractReceivables, previewPlanExcel } from './imports';
import { CHG, EDITORS, INFO } from './route-perms';

/** The contract form's uploads (receivables, a custom plan): previews only, nothing saved. */
export function registerImportRoutes({ api, db, clock, registries, config }: ModuleContext): void {
  const OPENING = button(INFO, 'openingImport');
  api.post(
    CONTRACT_PATHS.openingTemplate,
    {
      perm: OPENING,
      scope: { none: 'two header rows, the same for everyone; no stored data' },
      raw: true,
      summary: '期初导入 下载模板: xlsx with the sheets 合同 and 已还明细 and their exact headers',
    },
    async ({ reply }) =>
      reply
        .code(200)
        .header('content-type', XLSX_MIME)
        .header('content-disposition', contentDisposition('attachment', OPENING_TEMPLATE_FILE_NAME))
        .header('cache-control', 'no-store')
        .send(await openingTemplate()),
  );
  api.post(
    CONTRACT_PATHS.openingPreview,
    {
      perm: OPENING,
      scope: { none: 'a trial import rolled back; the references it names are checked by the save rules' },
      envelope: false,
      summary:
        '期初导入 xlsx (multipart "file") -> per-row preview from a trial import rolled back; nothing saved',
    },
    async ({ req, actor }) =>
      previewOpening(
        db,
        (await readXlsxUpload(req, config.uploadLimitBytes)).buf,
        actor,
        clock.today(),
        openingSteps(registries),
      ),
  );
  api.post(
    CONTRACT_PATHS.openingImport,
    {
      perm: OPENING,
      scope: { none: 'creates new contracts, stamped with the maker’s organisation' },
      envelope: false,
      summary:
        '期初导入 xlsx (multipart "file", field mode all|valid) -> the contracts imported; all: every row or none',
    },
    async ({ req, actor }) => {
      const { buf, fields } = await readXlsxUpload(req, config.uploadLimitBytes);
      const mode = (fields.mode ?? 'all') as OpeningMode;
      if (!OPENING_MODES.includes(mode)) throw badInput('导入方式取值不正确');
      return importOpening(db, buf, mode, actor, clock.today(), openingSteps(registries));
    },
  );
  api.post(
    CONTRACT_PATHS.importReceivables,
    {
      perm: [button(INFO, 'import'), ...EDITORS],
      scope: { none: 'previews an upload; the credit it may name is checked by the handler' },
      envelope: false,
      summary: 'xlsx (multipart "file"; optional field platCredBizCode) -> per-row preview; nothing saved',
    },
    async ({ req, user }) => {
      const { buf, fields } = await readXlsxUpload(req, config.uploadLimitBytes);
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
      const { buf, fields } = await readXlsxUpload(req, config.uploadLimitBytes);
      return previewPlanExcel(buf, {
        financingAmount: fields.financingAmount,
        startDate: fields.startDate,
      });
    },
  );
}
