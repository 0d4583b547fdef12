import {
  ADMISSION_MENU,
  ADMISSION_PATHS,
  admissionCodeQuery,
  admissionListSchema,
  admissionSaveSchema,
} from '@portal/contract/admission';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { ADMISSION_SCOPE_KINDS } from './scope-kinds';
import { listOf } from '../../platform/http/route-scope';
import { tableScope } from '../../platform/auth/row-scope';
import { COMPANY_USAGE } from '../company';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { seedDemoAdmissions } from './demo';
import { custAdmissions } from './schema';
import {
  ADMISSION_TYPE,
  admissionSubmission,
  applyAdmission,
  deleteAdmission,
  findAdmission,
  listAdmissions,
  openAdmissionsUsage,
  openIndexConflict,
  saveAdmission,
  viewAdmission,
} from './service';

const M = ADMISSION_MENU;

/** 客户准入 (docs/admission.md): a workflow document that admits a customer to credits and contracts. */
export const admissionModule: PortalModule = {
  name: 'admission',
  scopeKinds: ADMISSION_SCOPE_KINDS,
  register({ api, registries, db }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    // A customer with an open 准入单 cannot be deleted (company/del answers 409).
    registries.get(COMPANY_USAGE).add(openAdmissionsUsage);
    api.post(
      ADMISSION_PATHS.list,
      { perm: menu(M), scope: listOf('custAdmission'), body: admissionListSchema, summary: '客户准入单列表' },
      ({ body, user }) => listAdmissions(db, body, tableScope(user, custAdmissions)),
    );
    registerDocument(api, db, workflow, {
      type: ADMISSION_TYPE,
      table: 'cust_admissions',
      stamps: true,
      hooks: { onApprove: applyAdmission },
      codeParam: 'bizCode',
      scope: ['customer'],
      view: {
        path: ADMISSION_PATHS.view,
        perm: menu(M),
        summary: '客户准入单（KYC资料）',
        read: viewAdmission,
      },
      save: {
        path: ADMISSION_PATHS.save,
        perm: [button(M, 'add'), button(M, 'save')],
        body: admissionSaveSchema,
        write: (tx, body, { actor }) => saveAdmission(tx, body, actor),
        find: findAdmission,
        submission: admissionSubmission,
        onError: openIndexConflict,
      },
      remove: {
        path: ADMISSION_PATHS.del,
        perm: button(M, 'delete'),
        query: admissionCodeQuery,
        remove: deleteAdmission,
      },
      audit: { path: ADMISSION_PATHS.audit, perm: button(M, 'audit') },
      unAudit: { path: ADMISSION_PATHS.unAudit, perm: button(M, 'unAudit') },
    });
  },
  demo: seedDemoAdmissions,
};
