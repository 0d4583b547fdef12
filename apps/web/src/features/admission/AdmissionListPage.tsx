import { useNavigate } from 'react-router';
import { Button, Form, Input, Select } from 'antd';
import { ADMISSION_MENU, ADMISSION_PATHS, type AdmissionRow } from '@portal/contract/admission';
import { ListPage } from '../../shared/list/ListPage';
import { KEY } from '../../shared/list/fit-columns';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { DOC_STATE_OPTIONS, docActionsColumn, docStateColumn } from '../../shared/workflow/doc-columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { ADMISSION_ROUTES, admissionApi } from './api';

/** 客户准入 list (ft-cust-admit, docs/admission.md). */
export default function AdmissionListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const buttons = useButtons(ADMISSION_MENU);
  return (
    <div data-testid="admission-list">
      <ListPage<AdmissionRow>
        source={ADMISSION_PATHS.list}
        rowKey="bizCode"
        filters={
          <>
            <Form.Item name="compName" label="企业名称">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="state" label="审核状态">
              <Select allowClear style={{ width: 120 }} options={DOC_STATE_OPTIONS} />
            </Form.Item>
          </>
        }
        toolbar={
          buttons.has('add') ? (
            <Button type="primary" onClick={() => void navigate(ADMISSION_ROUTES.editor)}>
              新增准入
            </Button>
          ) : null
        }
        columns={[
          codeColumn<AdmissionRow>('准入单编号', 'bizCode'),
          { title: '企业名称', dataIndex: 'compName', key: 'compName', priority: KEY },
          { title: '统一社会信用代码', dataIndex: 'usccCode', key: 'usccCode' },
          { title: '法定代表人', dataIndex: 'legalPerson', key: 'legalPerson' },
          { title: '经办人', dataIndex: 'createdByName', key: 'createdByName' },
          dateColumn<AdmissionRow>('创建时间', 'createdAt', { withTime: true }),
          docStateColumn<AdmissionRow>(),
          docActionsColumn<AdmissionRow>({
            buttons,
            view: (r) => void navigate(`${ADMISSION_ROUTES.view}?bizCode=${r.bizCode}`),
            edit: (r) => void navigate(`${ADMISSION_ROUTES.editor}?bizCode=${r.bizCode}`),
            remove: (r) => void admissionApi.remove(r.bizCode).catch(() => undefined),
          }),
        ]}
      />
    </div>
  );
}
