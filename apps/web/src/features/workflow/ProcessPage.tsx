import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Modal, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import { formatDateTime, formatMoney } from '@portal/contract/format';
import {
  processSaveSchema,
  processStepSchema,
  WORKFLOW_PATHS,
  type DocType,
  type ProcessDefinition,
} from '@portal/contract/workflow';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { fieldRules } from '../../shared/form/zod-rule';
import { update } from '../../shared/request/http';
import { Auth } from '../../shared/permission/Auth';
import { showClosableWarning } from '../../shared/ui/feedback';
import { MonitorPanel } from './MonitorPanel';
import { processKeys, processQueries } from './api';
import { validValues } from '../../shared/ui/valid-values';
import { usePageFormName } from '../../shared/form/form-name';

/** 审批流程 (ft-process): each document type's approval steps, their roles and amount thresholds. */

interface StepForm {
  name: string;
  roleCode: string;
  minAmount?: string;
}
interface DefForm {
  procName: string;
  steps: StepForm[];
}

const processRules = fieldRules(processSaveSchema);
const stepRules = fieldRules(processStepSchema);

export default function ProcessPage() {
  const qc = useQueryClient();
  const defs = useQuery(processQueries.definitions());
  const [editing, setEditing] = useState<ProcessDefinition | null>(null);
  const [form] = Form.useForm<DefForm>();
  const formName = usePageFormName('process');

  const edit = (d: ProcessDefinition) => {
    setEditing(d);
    form.setFieldsValue({
      procName: d.procName,
      steps: d.steps.map((s) => ({
        name: s.name,
        roleCode: s.roleCode,
        minAmount: s.minAmount ?? undefined,
      })),
    });
  };

  const save = async () => {
    if (!editing) return;
    const values = await validValues(form);
    if (!values) return; // the form shows what is wrong
    const body = {
      docType: editing.docType as DocType,
      procName: values.procName,
      version: editing.version,
      steps: values.steps.map((s) => ({
        name: s.name,
        roleCode: s.roleCode,
        minAmount: s.minAmount?.trim() || undefined,
      })),
    };
    const parsed = processSaveSchema.safeParse(body);
    if (!parsed.success) {
      showClosableWarning(parsed.error.issues[0]?.message ?? '请检查数据完整性');
      return;
    }
    const res = await update(WORKFLOW_PATHS.defSave, parsed.data).catch(() => undefined);
    if (res?.ok) {
      setEditing(null);
      await qc.invalidateQueries({ queryKey: processKeys.definitions });
    }
  };

  return (
    <Card data-testid="process-page" title="审批流程">
      <Tabs
        items={[
          {
            key: 'defs',
            label: '流程定义',
            children: (
              <>
                <Typography.Paragraph type="secondary">
                  每类单据按步骤依次审批，最后一步通过即审核完成，任一步骤可驳回。设置了金额下限的步骤，只在单据金额达到下限时参与审批。修改只影响此后提交的单据。
                </Typography.Paragraph>
                <Table<ProcessDefinition>
                  rowKey="docType"
                  size="middle"
                  loading={defs.isLoading}
                  dataSource={defs.data?.list ?? []}
                  pagination={false}
                  columns={[
                    { title: '单据类型', dataIndex: 'docTypeLabel', width: 140 },
                    { title: '流程名称', dataIndex: 'procName', width: 200 },
                    {
                      title: '审批步骤',
                      key: 'steps',
                      render: (_: unknown, d) => (
                        <Space wrap size={4} data-testid={`steps-${d.docType}`}>
                          {d.steps.map((s) => (
                            <Tag key={s.no} color={s.minAmount ? 'orange' : 'blue'}>
                              {s.no}. {s.name}（{s.roleName}
                              {s.minAmount ? `，≥ ${formatMoney(s.minAmount)}` : ''}）
                            </Tag>
                          ))}
                        </Space>
                      ),
                    },
                    {
                      title: '更新时间',
                      dataIndex: 'updatedAt',
                      width: 170,
                      render: (v: string) => formatDateTime(v),
                    },
                    {
                      title: '操作',
                      key: 'op',
                      width: 90,
                      render: (_: unknown, d) => (
                        <Auth code="ft-process:save">
                          <Button
                            size="small"
                            type="link"
                            onClick={() => edit(d)}
                            data-testid={`edit-${d.docType}`}
                          >
                            编辑
                          </Button>
                        </Auth>
                      ),
                    },
                  ]}
                />
              </>
            ),
          },
          { key: 'monitor', label: '流程监控', children: <MonitorPanel /> },
        ]}
      />
      <Modal
        title={editing ? `编辑审批流程：${editing.docTypeLabel}` : ''}
        open={!!editing}
        width={760}
        onOk={() => void save()}
        onCancel={() => setEditing(null)}
        okText="保存"
        destroyOnHidden
        forceRender
      >
        <Form form={form} name={formName} layout="vertical">
          <Form.Item name="procName" label="流程名称" rules={processRules.procName}>
            <Input data-testid="proc-name" />
          </Form.Item>
          <Form.List name="steps">
            {(fields, { add, remove, move }) => (
              <>
                {fields.map((field, i) => (
                  <Space key={field.key} align="baseline" wrap data-testid="step-row">
                    <span style={{ width: 40, display: 'inline-block' }}>第{i + 1}步</span>
                    <Form.Item name={[field.name, 'name']} rules={stepRules.name}>
                      <Input placeholder="步骤名称" style={{ width: 150 }} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'roleCode']} rules={stepRules.roleCode}>
                      <Select
                        placeholder="审批角色"
                        style={{ width: 160 }}
                        options={(defs.data?.roles ?? []).map((r) => ({ value: r.code, label: r.name }))}
                      />
                    </Form.Item>
                    <Form.Item name={[field.name, 'minAmount']} rules={stepRules.minAmount}>
                      <MoneyInput
                        aria-label="金额下限"
                        placeholder="金额下限（可空）"
                        style={{ width: 160 }}
                      />
                    </Form.Item>
                    <Button
                      icon={<ArrowUpOutlined />}
                      disabled={i === 0}
                      onClick={() => move(i, i - 1)}
                      aria-label="上移"
                    />
                    <Button
                      icon={<ArrowDownOutlined />}
                      disabled={i === fields.length - 1}
                      onClick={() => move(i, i + 1)}
                      aria-label="下移"
                    />
                    <Button
                      icon={<DeleteOutlined />}
                      danger
                      disabled={fields.length === 1}
                      onClick={() => remove(field.name)}
                      aria-label="删除步骤"
                    />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ name: '', roleCode: undefined })}
                  block
                  disabled={fields.length >= 10}
                >
                  添加步骤
                </Button>
              </>
            )}
          </Form.List>
        </Form>
      </Modal>
    </Card>
  );
}
