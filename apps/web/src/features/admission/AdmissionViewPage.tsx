import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions } from 'antd';
import {
  ADMISSION_DOC_TYPE,
  ADMISSION_MENU,
  ADMISSION_PATHS,
  KYC_FILE_LABELS,
  KYC_FILES,
} from '@portal/contract/admission';
import { formatDateTime } from '@portal/contract/format';
import { FileList } from '../../shared/files/FileList';
import { DocAuditSidebar } from '../../shared/workflow/DocAuditSidebar';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import type { ScreenProps } from '../../shared/ui/screen';
import { ADMISSION_ROUTES, admissionKeys, admissionQueries } from './api';

/** 客户准入查看: the KYC material and the approval (风控 decides here). */
export default function AdmissionViewPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const code = params.get('bizCode') ?? '';
  const q = useQuery(admissionQueries.view(code));
  const v = q.data;
  return (
    <>
      {code ? <DocAuditSidebar docType={ADMISSION_DOC_TYPE} docCode={code} /> : null}
      <DocViewFrame
        testId="admission-view"
        title="客户准入"
        state={v?.state}
        backTo={ADMISSION_ROUTES.list}
        docType={ADMISSION_DOC_TYPE}
        docCode={code}
        menuCode={ADMISSION_MENU}
        auditPath={ADMISSION_PATHS.audit}
        unAuditPath={ADMISSION_PATHS.unAudit}
        refresh={admissionKeys.all}
        editTo={`${ADMISSION_ROUTES.editor}?bizCode=${code}`}
      >
        {v ? (
          <>
            {v.state === 'pending' ? (
              <Alert
                style={{ marginBottom: 12 }}
                type="info"
                showIcon
                message="审核通过后，该企业客户即为已准入，可以办理授信和合同；请核对企业信息与KYC资料是否一致。"
              />
            ) : null}
            <Descriptions size="small" bordered column={2}>
              <Descriptions.Item label="企业客户">{`${v.compName}（${v.compCode}）`}</Descriptions.Item>
              <Descriptions.Item label="统一社会信用代码">{v.usccCode}</Descriptions.Item>
              <Descriptions.Item label="法定代表人">{v.legalPerson}</Descriptions.Item>
              <Descriptions.Item label="法定代表人身份证号">{v.legalIdNo}</Descriptions.Item>
              <Descriptions.Item label="实际控制人/受益所有人" span={2}>
                {v.controllerName}
              </Descriptions.Item>
              <Descriptions.Item label="银行账户" span={2}>
                {v.bankLabel || v.bankBizCode}
              </Descriptions.Item>
              {KYC_FILES.map((f) => {
                const file = v.files[f];
                return (
                  <Descriptions.Item key={f} label={KYC_FILE_LABELS[f]}>
                    {file ? <FileList readOnly value={[file]} /> : '未上传'}
                  </Descriptions.Item>
                );
              })}
              <Descriptions.Item label="经办人">{v.createdByName ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="创建时间">{formatDateTime(v.createdAt)}</Descriptions.Item>
              <Descriptions.Item label="备注" span={2}>
                {v.remark ?? '—'}
              </Descriptions.Item>
            </Descriptions>
          </>
        ) : null}
      </DocViewFrame>
    </>
  );
}
