import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import { Alert, Button, Card, Descriptions, Input, Radio, Select, Space, Statistic, Table, Tag } from 'antd';
import {
  COMPONENT_LABELS,
  COMPONENTS,
  PAID_KIND_LABELS,
  PAID_PATHS,
  type Component,
  type OpenPlanItem,
  type PaidKind,
} from '@portal/contract/accounts';
import { formatMoney } from '@portal/contract/format';
import { update } from '../../shared/request/http';
import { PAID_ROUTES, paidApi } from './api';

type Allocation = Record<string, string>;
const key = (itemId: number, c: Component) => `${itemId}/${c}`;

function total(a: Allocation): Decimal {
  return Object.values(a).reduce((s, v) => (/^\d+(\.\d{1,2})?$/.test(v) ? s.plus(v) : s), new Decimal(0));
}

/**
 * 来款核销编辑: the incoming, the contract's open items as of the write-off date, and the
 * allocation being built (by the rule, an early-settlement quote, or by hand) with live totals.
 */
export default function PaidEditorPage() {
  const [params] = useSearchParams();
  const paidCode = params.get('paidBizCode') ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [fiid, setFiid] = useState(params.get('fiidBizCode') ?? '');
  const [cont, setCont] = useState('');
  const [paidDate, setPaidDate] = useState('');
  const [kind, setKind] = useState<PaidKind>('normal');
  const [amount, setAmount] = useState('');
  const [alloc, setAlloc] = useState<Allocation>({});
  const [version, setVersion] = useState<number | undefined>();
  const [note, setNote] = useState<string | null>(null);

  const existing = useQuery({
    queryKey: ['paid', paidCode],
    queryFn: () => paidApi.view(paidCode),
    enabled: !!paidCode,
  });
  useEffect(() => {
    const v = existing.data;
    if (!v) return;
    setFiid(v.fiidBizCode);
    setCont(v.contBizCode);
    setPaidDate(v.paidDate);
    setKind(v.kind);
    setVersion(v.version);
    setAlloc(Object.fromEntries(v.lines.map((l) => [key(l.itemId, l.component), l.amount])));
  }, [existing.data]);

  const incomes = useQuery({ queryKey: ['paid', 'incomes'], queryFn: paidApi.incomes, enabled: !paidCode });
  const init = useQuery({
    queryKey: ['paid', 'init', fiid],
    queryFn: () => paidApi.init(fiid, false),
    enabled: !!fiid,
  });
  useEffect(() => {
    if (init.data && !paidCode) {
      setPaidDate((d) => d || init.data.paidDate);
      setAmount((a) => a || init.data.income.balance);
    }
  }, [init.data, paidCode]);
  const plan = useQuery({
    queryKey: ['paid', 'plan', cont, paidDate],
    queryFn: () => paidApi.plan(cont, paidDate),
    enabled: !!cont && /^\d{4}-\d{2}-\d{2}$/.test(paidDate),
  });

  const balance = new Decimal(init.data?.income.balance ?? existing.data?.income.balance ?? 0);
  const sum = useMemo(() => total(alloc), [alloc]);
  const after = balance.minus(sum);

  const suggest = async () => {
    if (!fiid || !cont) return;
    setNote(null);
    const s = await paidApi
      .suggest(
        { fiidBizCode: fiid, contBizCode: cont, paidDate, ...(amount ? { amount } : {}) },
        kind === 'settlement',
      )
      .catch(() => null);
    if (!s) return;
    setAlloc(Object.fromEntries(s.lines.map((l) => [key(l.itemId, l.component), l.amount])));
    if (s.settlement)
      setNote(
        `提前结清需 ${formatMoney(s.settlement.total)}，减免利息 ${formatMoney(s.settlement.interestWaived)}、费用 ${formatMoney(s.settlement.feeWaived)}`,
      );
    else if (new Decimal(s.unallocated).gt(0))
      setNote(`有 ${formatMoney(s.unallocated)} 未能分配（计划已全部覆盖），将留在来款余额中`);
  };

  const save = async (submit: boolean) => {
    const lines = Object.entries(alloc)
      .filter(([, v]) => /^\d+(\.\d{1,2})?$/.test(v) && new Decimal(v).gt(0))
      .map(([k, v]) => {
        const [itemId, component] = k.split('/') as [string, Component];
        return { itemId: Number(itemId), component, amount: v };
      });
    const r = await update<{ paidBizCode: string; version: number }>(
      PAID_PATHS.savePlanPaidInfo,
      {
        fiidBizCode: fiid,
        contBizCode: cont,
        paidDate,
        kind,
        lines,
        ...(paidCode ? { paidBizCode: paidCode, version } : {}),
        submit,
      },
      { confirm: `此操作将保存来款核销${submit ? '并提交审批' : ''}！ 是否继续？` },
    ).catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    void qc.invalidateQueries({ queryKey: ['paid'] });
    if (submit) void navigate(`${PAID_ROUTES.view}?paidBizCode=${r.data.paidBizCode}`);
    else if (!paidCode)
      void navigate(`${PAID_ROUTES.editor}?paidBizCode=${r.data.paidBizCode}`, { replace: true });
  };

  const manual = kind === 'manual';
  const cell = (o: OpenPlanItem, c: Component) => {
    const v = alloc[key(o.itemId, c)] ?? '';
    const over = v && /^\d+(\.\d{1,2})?$/.test(v) && new Decimal(v).gt(o.open[c]);
    return manual ? (
      <Input
        size="small"
        style={{ width: 110 }}
        status={over ? 'error' : undefined}
        aria-label={`第${o.period}期${COMPONENT_LABELS[c]}`}
        value={v}
        onChange={(e) => setAlloc((a) => ({ ...a, [key(o.itemId, c)]: e.target.value.trim() }))}
      />
    ) : (
      <span>{v ? formatMoney(v) : '—'}</span>
    );
  };

  const income = init.data?.income ?? existing.data?.income;
  return (
    <Card
      data-testid="paid-editor"
      title={paidCode ? `来款核销编辑 ${paidCode}` : '新增来款核销'}
      extra={<Button onClick={() => void navigate(PAID_ROUTES.list)}>返回</Button>}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        {!paidCode ? (
          <Select
            aria-label="来款"
            placeholder="选择待核销的来款"
            style={{ width: 480 }}
            value={fiid || undefined}
            onChange={(v: string) => {
              setFiid(v);
              setAmount('');
              setAlloc({});
            }}
            options={(incomes.data ?? []).map((i) => ({
              value: i.fiidBizCode,
              label: `${i.fiidBizCode} ${i.payerName} ${i.valueDate} 余额 ${formatMoney(i.balance)}`,
            }))}
          />
        ) : null}
        {income ? (
          <Descriptions size="small" bordered column={3}>
            <Descriptions.Item label="来款编号">{income.fiidBizCode}</Descriptions.Item>
            <Descriptions.Item label="付款人">{income.payerName}</Descriptions.Item>
            <Descriptions.Item label="来款日期">{income.valueDate}</Descriptions.Item>
            <Descriptions.Item label="来款金额">{formatMoney(income.amount)}</Descriptions.Item>
            <Descriptions.Item label="可核销余额">{formatMoney(income.balance)}</Descriptions.Item>
            <Descriptions.Item label="银行流水号">{income.serialNo}</Descriptions.Item>
          </Descriptions>
        ) : null}
        <Space wrap>
          <Select
            aria-label="合同"
            placeholder="选择合同"
            style={{ width: 360 }}
            value={cont || undefined}
            disabled={!!paidCode}
            onChange={(v: string) => {
              setCont(v);
              setAlloc({});
            }}
            options={(init.data?.contracts ?? []).map((c) => ({
              value: c.contBizCode,
              label: `${c.contractNo} ${c.custName} 待还本金 ${formatMoney(c.principalOpen)}`,
            }))}
          />
          <Input
            aria-label="核销日期"
            addonBefore="核销日期"
            style={{ width: 240 }}
            value={paidDate}
            onChange={(e) => setPaidDate(e.target.value.trim())}
          />
          <Radio.Group
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as PaidKind);
              setAlloc({});
              setNote(null);
            }}
            options={Object.entries(PAID_KIND_LABELS).map(([value, label]) => ({ value, label }))}
          />
          {kind !== 'settlement' ? (
            <Input
              aria-label="核销金额"
              addonBefore="核销金额"
              style={{ width: 240 }}
              value={amount}
              onChange={(e) => setAmount(e.target.value.trim())}
            />
          ) : null}
          <Button onClick={() => void suggest()} disabled={!fiid || !cont}>
            {kind === 'settlement' ? '测算提前结清' : '按规则分配'}
          </Button>
        </Space>
        {note ? <Alert type="info" showIcon message={note} /> : null}
        <Table<OpenPlanItem>
          data-testid="paid-open-items"
          size="small"
          rowKey="itemId"
          pagination={false}
          loading={plan.isFetching}
          dataSource={plan.data?.items ?? []}
          locale={{ emptyText: cont ? '没有待还的期次' : '请选择合同' }}
          columns={[
            { title: '期次', dataIndex: 'period', key: 'period', width: 60 },
            { title: '还款日', dataIndex: 'dueDate', key: 'dueDate' },
            {
              title: '状态',
              key: 'status',
              render: (_, o) => (
                <Tag color={o.status === '逾期' ? 'red' : 'default'}>
                  {o.status}
                  {o.overdueDays ? ` ${o.overdueDays}天` : ''}
                </Tag>
              ),
            },
            ...COMPONENTS.map((c) => ({
              title: `待还${COMPONENT_LABELS[c]}`,
              key: `open-${c}`,
              align: 'right' as const,
              render: (_: unknown, o: OpenPlanItem) => formatMoney(o.open[c]),
            })),
            ...COMPONENTS.map((c) => ({
              title: `本次${COMPONENT_LABELS[c]}`,
              key: `alloc-${c}`,
              align: 'right' as const,
              render: (_: unknown, o: OpenPlanItem) => cell(o, c),
            })),
          ]}
        />
        <Space size="large" data-testid="paid-totals">
          <Statistic title="本次核销合计" value={formatMoney(sum.toFixed(2))} />
          <Statistic title="来款可核销余额" value={formatMoney(balance.toFixed(2))} />
          <Statistic
            title="核销后来款余额"
            value={formatMoney(after.toFixed(2))}
            valueStyle={after.isNeg() ? { color: '#cf1322' } : undefined}
          />
        </Space>
        {after.isNeg() ? <Alert type="error" showIcon message="核销金额超过来款可核销余额" /> : null}
        <Space>
          <Button type="primary" disabled={sum.lte(0) || after.isNeg()} onClick={() => void save(false)}>
            保存
          </Button>
          <Button disabled={sum.lte(0) || after.isNeg()} onClick={() => void save(true)}>
            保存并提交
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
