import { useState } from 'react';
import { Button, Form, Input, Modal, Select } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { button } from '@portal/contract/menus';
import { VOUCHER_MENUS } from '@portal/contract/voucher';
import {
  PACKAGE_LABELS,
  PACKAGE_PATHS,
  PACKAGES,
  packageExportSchema,
  packageFileName,
  type AccountingPackage,
} from '@portal/contract/voucher-package';
import { fieldRules } from '../../shared/form/zod-rule';
import { Auth } from '../../shared/permission/Auth';
import { exportFile } from '../../shared/request/http';
import { currentPeriod } from './api';

const rules = fieldRules(packageExportSchema);

interface Values {
  period: string;
  package: AccountingPackage;
  bookCode?: string;
}

/**
 * 导出到财务软件: a month's vouchers as the import file of 用友 U8 / T+ or 金蝶 K/3 Cloud, chosen
 * here for each export (docs/accounting.md "Export to the accounting package").
 */
export function PackageExport() {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<Values>();
  const pkg = Form.useWatch('package', form);
  const run = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      await exportFile(PACKAGE_PATHS.export, v, { fileName: packageFileName(v.package, v.period) });
      setOpen(false);
    } catch {
      // the request layer has warned
    } finally {
      setBusy(false);
    }
  };
  return (
    <Auth code={button(VOUCHER_MENUS.vouchers, 'export')}>
      <Button icon={<ExportOutlined />} onClick={() => setOpen(true)}>
        导出到财务软件
      </Button>
      <Modal
        open={open}
        title="导出到财务软件（凭证引入）"
        okText="导出"
        confirmLoading={busy}
        onOk={() => void run()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Form<Values>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ period: currentPeriod(), package: 'yonyou' }}
        >
          <Form.Item name="period" label="会计期间" rules={rules.period}>
            <Input placeholder="YYYY-MM" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="package" label="财务软件" rules={rules.package}>
            <Select
              style={{ width: 220 }}
              options={PACKAGES.map((p) => ({ value: p, label: PACKAGE_LABELS[p] }))}
            />
          </Form.Item>
          {pkg === 'kingdee' ? (
            <Form.Item
              name="bookCode"
              label="账簿编码"
              rules={[...rules.bookCode, { required: true, message: '请输入账簿编码' }]}
            >
              <Input style={{ width: 220 }} maxLength={30} />
            </Form.Item>
          ) : null}
        </Form>
      </Modal>
    </Auth>
  );
}
