import type { PortalModule } from '../platform/module';
import { authModule } from './auth/routes';
import { geoModule } from './geo/routes';
import { rulerModule } from './ruler/routes';
import { filesModule } from './files/routes';
import { companyModule } from './company/routes';
import { bankModule } from './bank/routes';
import { admissionModule } from './admission/routes';
import { crmModule } from './crm/routes';
import { creditModule } from './credit/routes';
import { workflowModule } from './workflow/routes';
import { permissionModule } from './permission/routes';
import { contractModule } from './contract/routes';
import { assignmentModule } from './assignment/routes';
import { dashboardModule } from './dashboard/routes';
import { incomeModule } from './income/routes';
import { paidModule } from './paid/routes';
import { prepaymentModule } from './prepayment/routes';
import { loanModule } from './loan/routes';
import { bizdateModule } from './bizdate/routes';
import { printModule } from './print/routes';
import { permitModule } from './permit/routes';
import { crmChangeModule } from './crm-change/routes';
import { monitorModule } from './monitor/routes';
import { systemModule } from './system/routes';
import { messagesModule } from './messages/routes';
import { ledgerModule } from './ledger/routes';
import { classificationModule } from './classification/routes';
import { voucherModule } from './voucher/routes';
import { regulatorModule } from './regulator/routes';
import { noticesModule } from './notices/routes';
import { jobsModule } from './jobs/routes';
import { collectionsModule } from './collections/routes';
import { debtorModule } from './debtor/routes';
import { buybackModule } from './buyback/routes';
import { badDebtModule } from './baddebt/routes';

/** Every business area, in registration (and seeding) order. */
export const MODULES: readonly PortalModule[] = [
  authModule,
  permissionModule,
  workflowModule,
  geoModule,
  filesModule,
  companyModule,
  bankModule,
  admissionModule,
  crmModule,
  rulerModule,
  creditModule,
  contractModule,
  // Before loan: the demo disbursement needs its debtor's confirmation.
  assignmentModule,
  prepaymentModule,
  loanModule,
  incomeModule,
  paidModule,
  printModule,
  permitModule,
  dashboardModule,
  bizdateModule,
  crmChangeModule,
  monitorModule,
  systemModule,
  messagesModule,
  ledgerModule,
  classificationModule,
  voucherModule,
  regulatorModule,
  noticesModule,
  jobsModule,
  collectionsModule,
  debtorModule,
  buybackModule,
  badDebtModule,
];
