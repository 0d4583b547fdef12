import { Tooltip } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import { BIZDATE_SOURCE_LABELS } from '@portal/contract/bizdate';
import { useBizDate } from './api';

/** 营业日 in the management layout's header, for everyone (docs/business-date.md). */
export function BizDateBadge() {
  const q = useBizDate();
  if (!q.data) return null;
  return (
    <Tooltip title={`来源：${BIZDATE_SOURCE_LABELS[q.data.source]}`}>
      <span
        className="navbar-bizdate"
        data-testid="biz-date"
        style={{ padding: '0 8px', whiteSpace: 'nowrap' }}
      >
        <CalendarOutlined /> 营业日 {q.data.businessDate}
      </span>
    </Tooltip>
  );
}
