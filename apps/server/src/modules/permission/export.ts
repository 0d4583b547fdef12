import { STATE_LABELS, USER_EXPORT_FILE_NAME, type UserView } from '@portal/contract/permission';
import { formatDateTime } from '@portal/contract/format';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<UserView>[] = [
  { header: '用户编号', width: 15, value: (r) => r.userCode },
  { header: '用户名', width: 16, value: (r) => r.userName },
  { header: '姓名', width: 12, value: (r) => r.realName },
  { header: '所属组织', width: 24, value: (r) => r.deptName },
  { header: '角色', width: 30, value: (r) => r.roles.map((x) => x.label).join('、') },
  { header: '手机号', width: 16, value: (r) => r.phone },
  { header: '邮箱', width: 24, value: (r) => r.email },
  { header: '状态', width: 8, value: (r) => STATE_LABELS[r.state] },
  { header: '创建时间', width: 20, value: (r) => formatDateTime(r.createdAt) },
];

/** 用户管理 导出: the list's rows, page after page of its own query. */
export function userExport(page: ListExport<UserView>['page']): ListExport<UserView> {
  return { fileName: USER_EXPORT_FILE_NAME, sheetName: '用户', columns: COLUMNS, unit: '人', page };
}
