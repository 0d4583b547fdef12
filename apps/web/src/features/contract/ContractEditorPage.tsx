import type { ReactNode } from 'react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Tabs } from 'antd';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { FillSection } from '../../shared/editor/fill-gate';
import { CONTRACT_ROUTES } from './api';
import { PayersTable } from './components';
import { BusinessSection } from './editor/BusinessSection';
import { useContractDoc } from './editor/contract-doc';
import { DuesSection } from './editor/DuesSection';
import { FilesSection } from './editor/FilesSection';
import { InfoSection } from './editor/InfoSection';
import { SchemeSection } from './editor/SchemeSection';
import { ContractStateTags } from './state-tags';

/**
 * 合同编辑: 基本信息 first; the other sections (editor/, one module each) save with the
 * contract's version once it exists.
 */
export default function ContractEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const doc = useContractDoc(bizCode);
  const [tab, setTab] = useState('info');
  // Each tab reads its own part when it first shows: a section that takes no input until its
  // part has arrived (docs/architecture.md "Editors keep their input").
  const once = (section: ReactNode) =>
    bizCode ? (
      <FillSection>{section}</FillSection>
    ) : (
      <Alert type="info" showIcon message="请先保存合同基本信息" />
    );

  return (
    <EditorFrame
      testId="contract-editor"
      title={bizCode ? `合同编辑 ${bizCode}` : '新增合同'}
      tags={doc.info ? <ContractStateTags row={doc.info} /> : null}
      backTo={CONTRACT_ROUTES.list}
      doc={bizCode ? { docType: 'contract', docCode: bizCode } : undefined}
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'info',
            label: '基本信息',
            children: (
              <FillSection>
                <InfoSection doc={doc} fromCredit={params.get('platCredBizCode') ?? ''} />
              </FillSection>
            ),
          },
          { key: 'scheme', label: '方案/还款计划', children: once(<SchemeSection doc={doc} />) },
          { key: 'dues', label: '应收费用', children: once(<DuesSection doc={doc} />) },
          { key: 'business', label: '业务信息', children: once(<BusinessSection doc={doc} />) },
          { key: 'files', label: '附件', children: once(<FilesSection doc={doc} />) },
          {
            key: 'payers',
            label: '付款方信息',
            children: once(<PayersTable rows={doc.info?.payers ?? []} testId="payers-view" />),
          },
        ]}
      />
    </EditorFrame>
  );
}
