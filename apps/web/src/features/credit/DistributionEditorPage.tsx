import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Select } from 'antd';
import Decimal from 'decimal.js';
import {
  CREDIT_PATHS,
  DIST_TARGET_LABELS,
  PRODUCT_LABELS,
  type DistView,
  distItemSchema,
  distSaveSchema,
} from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { FileList } from '../../shared/files/FileList';
import { useUploadGuard } from '../../shared/files/upload-guard';
import type { FileItem } from '../../shared/files/files-api';
import { ListEditor } from '../../shared/form/ListEditor';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { fieldRules, formRules } from '../../shared/form/zod-rule';
import { usePageFormName } from '../../shared/form/form-name';
import { creditApi, creditQueries, type Saved } from './api';
import { CreditDocEditor, type CreditDocSpec, type CreditDocState } from './CreditDocEditor';
import { DISTRIBUTION_DOC } from './doc-kinds';
import { labelOptions } from '../../shared/form/label-options';
import { useFormFill } from '../../shared/editor/use-form-fill';

const rules = formRules(distSaveSchema);
const itemRules = fieldRules(distItemSchema);

const SPEC: CreditDocSpec = {
  kind: DISTRIBUTION_DOC,
  what: '额度分配',
  savePath: CREDIT_PATHS.saveCredDistribution,
  testId: 'dist-editor',
};

interface Item {
  targetType?: 'member' | 'product';
  custCode?: string;
  product?: string;
  amount?: string;
  remark?: string;
}

interface Values {
  credBizCode?: string;
  remark?: string;
  items: Item[];
}

const toForm = (d: DistView): Values => ({
  credBizCode: d.credBizCode,
  remark: d.remark ?? undefined,
  items: d.items,
});

/** 额度分配编辑: split an approved credit's platform line among group members or products. */
export default function DistributionEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const [form] = Form.useForm<Values>();
  const formName = usePageFormName('distribution');
  const [files, setFiles] = useState<FileItem[]>([]);
  const fileUploads = useUploadGuard('分配文件');
  const credBizCode = Form.useWatch('credBizCode', form);
  const items = Form.useWatch('items', form) ?? [];

  const dist = useQuery(creditQueries.distribution(bizCode));
  const distFiles = useQuery(creditQueries.distFiles(bizCode));
  const customers = useQuery(creditQueries.customers());
  const parent = useQuery(creditQueries.platform(credBizCode));

  useFormFill(distFiles, setFiles);

  const total = items.reduce((s, i) => {
    try {
      return s.plus(new Decimal(i?.amount || 0));
    } catch {
      return s;
    }
  }, new Decimal(0));
  const line = parent.data?.line;

  const saveFiles = async ({ version, setVersion }: CreditDocState) => {
    if (!fileUploads.settled()) return;
    const r = await creditApi
      .save<Saved>(
        CREDIT_PATHS.saveCredDistributionFile,
        { distBizCode: bizCode, version, fileTokens: files.map((f) => f.fileToken) },
        '分配文件',
      )
      .catch(() => null);
    if (r?.ok && r.data) setVersion(r.data.version);
  };

  return (
    <CreditDocEditor<Values, DistView>
      spec={SPEC}
      bizCode={bizCode}
      read={dist}
      toForm={toForm}
      form={form}
      formName={formName}
      initialValues={{ items: [{ targetType: 'member' }] }}
      credRule={rules.credBizCode}
      credFixed
      after={(state) =>
        bizCode ? (
          <Card size="small" title="分配文件" style={{ marginTop: 16 }}>
            <FileList
              value={files}
              onChange={setFiles}
              readOnly={!state.editable}
              onUploadingChange={fileUploads.onUploadingChange}
            />
            <Button style={{ marginTop: 8 }} disabled={!state.editable} onClick={() => void saveFiles(state)}>
              保存文件
            </Button>
          </Card>
        ) : null
      }
    >
      {line ? (
        <Descriptions size="small" bordered column={4} style={{ marginBottom: 16 }}>
          <Descriptions.Item label="平台额度">{formatMoney(line.limitAmount)}</Descriptions.Item>
          <Descriptions.Item label="已占用">{formatMoney(line.occupiedAmount)}</Descriptions.Item>
          <Descriptions.Item label="已分配">{formatMoney(line.reservedAmount)}</Descriptions.Item>
          <Descriptions.Item label="可分配">{formatMoney(line.availableAmount)}</Descriptions.Item>
        </Descriptions>
      ) : null}
      <ListEditor
        name="items"
        testId="dist-items"
        addText="添加分配"
        removeLabel="删除行"
        newRow={{ targetType: 'member' }}
        columns={[
          {
            name: 'targetType',
            title: '分配对象类型',
            width: 120,
            rules: itemRules.targetType,
            input: <Select aria-label="分配对象类型" options={labelOptions(DIST_TARGET_LABELS)} />,
          },
          {
            name: 'target',
            title: '分配对象',
            width: 240,
            cell: (i) =>
              items[i]?.targetType === 'product' ? (
                <Form.Item name={[i, 'product']} rules={itemRules.product} style={{ marginBottom: 8 }}>
                  <Select aria-label="产品" options={labelOptions(PRODUCT_LABELS)} />
                </Form.Item>
              ) : (
                <Form.Item name={[i, 'custCode']} rules={itemRules.custCode} style={{ marginBottom: 8 }}>
                  <Select
                    showSearch
                    aria-label="成员客户"
                    optionFilterProp="label"
                    options={(customers.data ?? []).map((c) => ({ value: c.code, label: c.label }))}
                  />
                </Form.Item>
              ),
          },
          {
            name: 'amount',
            title: '分配额度',
            width: 180,
            rules: itemRules.amount,
            input: <MoneyInput aria-label="分配额度" />,
          },
          {
            name: 'remark',
            title: '备注',
            width: 200,
            rules: itemRules.remark,
            input: <Input aria-label="分配备注" />,
          },
        ]}
      />
      <div style={{ margin: '12px 0' }}>
        分配合计：<b data-testid="dist-total">{formatMoney(total)}</b>
        {line && total.gt(line.availableAmount) ? (
          <Alert
            style={{ marginTop: 8 }}
            type="error"
            showIcon
            message={`分配合计超过可分配额度 ${formatMoney(line.availableAmount)}`}
          />
        ) : null}
      </div>
      <Form.Item name="remark" label="备注" rules={rules.remark}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
    </CreditDocEditor>
  );
}
