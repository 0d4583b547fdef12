/** The tabs of the customer editor / viewer (/crm/corporation/edit|view/*). */
export { BasicTab } from './BasicTab';
export { EmployeeTab } from './EmployeeTab';
export { RoleTab } from './RoleTab';
export { AccountTab } from './AccountTab';
export { BillTab } from './BillTab';
export { DesTab } from './DesTab';
export { CorporationAddTab } from './CorporationAddTab';
export { FileTab } from './FileTab';
export { ApprovalTab } from './ApprovalTab';
