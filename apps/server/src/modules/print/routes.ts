import {
  BIZ_TYPE_LABELS,
  BIZ_TYPE_MENUS,
  BIZ_TYPES,
  bizTypeQuery,
  PRINT_CATALOGUES,
  PRINT_MENU,
  PRINT_PATHS,
  printContractDraftSchema,
  printDocSchema,
  templateCodeQuery,
  templateListSchema,
  templateSaveSchema,
  type BizType,
} from '@portal/contract/print';
import { placeholderHints } from '@portal/contract/print/data';
import { button, menu } from '@portal/contract/menus';
import type { FastifyReply } from 'fastify';
import type { PortalModule } from '../../platform/module';
import { permAllows } from '../../platform/http/route';
import { contentDisposition } from '../../platform/http/download';
import { noPermission } from '../../platform/errors';
import { PdfRenderer } from '../../platform/pdf';
import type { SessionUser } from '../../platform/auth/sessions';
import { companyDict } from '../company/service';
import { printPage } from '@portal/contract/print/page';
import { contractDraftSource, PRINT_LOADERS } from './sources';
import {
  cleanTemplate,
  deleteTemplate,
  listTemplates,
  printingTemplate,
  renderBody,
  saveTemplate,
  setTemplateState,
  viewTemplate,
} from './service';
import { seedDemoTemplates } from './demo';

const p = (path: string) => `/api${path}`;
const DESIGNERS = [button(PRINT_MENU, 'save'), button(PRINT_MENU, 'add')];
const PRINTERS = [...new Set(BIZ_TYPES.map((t) => button(BIZ_TYPE_MENUS[t], 'print')))];
const CONTRACT_EDITORS = [button(BIZ_TYPE_MENUS.contract, 'add'), button(BIZ_TYPE_MENUS.contract, 'save')];

function demand(user: SessionUser, perms: readonly string[]): void {
  if (permAllows(perms, user) !== 'ok') throw noPermission();
}

function sendHtml(reply: FastifyReply, html: string): void {
  void reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

export const printModule: PortalModule = {
  name: 'print',
  register({ api, app, db, config, clock }) {
    const pdf = new PdfRenderer({ executablePath: config.chromiumPath, timeoutMs: config.pdfTimeoutMs });
    app.addHook('onClose', () => pdf.close());

    api.post(p(PRINT_PATHS.bizTypeList), { perm: 'session' }, async () =>
      BIZ_TYPES.map((t) => ({ code: t, label: BIZ_TYPE_LABELS[t] })),
    );
    api.post(p(PRINT_PATHS.info), { perm: menu(PRINT_MENU), query: bizTypeQuery }, async ({ query }) => ({
      bizType: query.bizType,
      label: PRINT_CATALOGUES[query.bizType].label,
      ...placeholderHints(query.bizType),
    }));
    api.post(p(PRINT_PATHS.getCoreComp), { perm: menu(PRINT_MENU) }, async () =>
      companyDict(db, { role: 'core' }),
    );
    api.post(p(PRINT_PATHS.list), { perm: menu(PRINT_MENU), body: templateListSchema }, async ({ body }) =>
      listTemplates(db, body),
    );
    api.post(p(PRINT_PATHS.view), { perm: menu(PRINT_MENU), query: templateCodeQuery }, async ({ query }) =>
      viewTemplate(db, query.bizCode),
    );
    api.post(
      p(PRINT_PATHS.save),
      { perm: DESIGNERS, body: templateSaveSchema },
      async ({ body, user, actor }) => {
        demand(user, [button(PRINT_MENU, body.bizCode ? 'save' : 'add')]);
        return saveTemplate(db, body, actor);
      },
    );
    for (const [path, state] of [
      [PRINT_PATHS.enable, 'enabled'],
      [PRINT_PATHS.disable, 'disabled'],
    ] as const) {
      api.post(
        p(path),
        { perm: button(PRINT_MENU, state === 'enabled' ? 'enable' : 'disable'), query: templateCodeQuery },
        async ({ query, actor }) => {
          await setTemplateState(db, query.bizCode, state, actor);
          return null;
        },
      );
    }
    api.post(
      p(PRINT_PATHS.delete),
      { perm: button(PRINT_MENU, 'delete'), query: templateCodeQuery },
      async ({ query, actor }) => {
        await deleteTemplate(db, query.bizCode, actor);
        return null;
      },
    );

    /** A document rendered with its template (or, for designers, with a draft body). */
    const renderDoc = async (
      body: {
        bizType: BizType;
        docCode: string;
        tplBizCode?: string | undefined;
        content?: string | undefined;
      },
      user: SessionUser,
    ) => {
      const docMenu = BIZ_TYPE_MENUS[body.bizType];
      if (body.content === undefined) demand(user, [button(docMenu, 'print')]);
      else {
        // A designer previews a draft on a real document only if they may open that screen.
        demand(user, DESIGNERS);
        demand(user, [menu(docMenu)]);
      }
      const source = await PRINT_LOADERS[body.bizType](db, body.docCode, user, clock.today());
      const content =
        body.content === undefined
          ? (await printingTemplate(db, body.bizType, source.coreCompCode, body.tplBizCode)).content
          : cleanTemplate(body.bizType, body.content);
      const title = `${BIZ_TYPE_LABELS[body.bizType]}-${body.docCode}`;
      return { title, html: printPage(title, renderBody(body.bizType, content, source)) };
    };

    api.post(
      p(PRINT_PATHS.perViewHtml),
      { perm: [...PRINTERS, ...DESIGNERS], body: printDocSchema, raw: true, summary: 'text/html' },
      async ({ body, user, reply }) => sendHtml(reply, (await renderDoc(body, user)).html),
    );
    api.post(
      p(PRINT_PATHS.perViewPdf),
      {
        perm: PRINTERS,
        body: printDocSchema.omit({ content: true }),
        raw: true,
        summary: 'application/pdf, A4',
      },
      async ({ body, user, reply }) => {
        const { title, html } = await renderDoc(body, user);
        const file = await pdf.render(html);
        void reply
          .code(200)
          .header('content-type', 'application/pdf')
          .header('content-disposition', contentDisposition(body.disposition ?? 'inline', `${title}.pdf`))
          .header('cache-control', 'no-store')
          .send(file);
      },
    );
    api.post(
      p(PRINT_PATHS.preContViewHtml),
      { perm: CONTRACT_EDITORS, body: printContractDraftSchema, raw: true, summary: 'text/html' },
      async ({ body, reply }) => {
        const source = await contractDraftSource(db, body.contract, clock.today());
        const template = await printingTemplate(db, 'contract', source.coreCompCode, body.tplBizCode);
        const title = `${BIZ_TYPE_LABELS.contract}-${body.contract.contractNo}`;
        sendHtml(reply, printPage(title, renderBody('contract', template.content, source)));
      },
    );
  },
  demo: seedDemoTemplates,
};
