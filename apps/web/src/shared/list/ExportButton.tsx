import { useContext, useState } from 'react';
import { useLocation } from 'react-router';
import { Button, message } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { button } from '@portal/contract/menus';
import { listConditionKey, readListCondition } from './list-condition';
import { ListParamsContext } from './list-params-context';
import { Auth } from '../permission/Auth';
import { exportFile, type RequestOptions } from '../request/http';

interface ExportButtonProps {
  /** The menu whose `export` button shows this. */
  menu: string;
  path: string;
  fileName: string;
  /** The button's text when a list offers more than one format (导出 xlsx, 导出 CSV). */
  label?: string;
}

/**
 * 导出: posts `body()` (and `query`) to `path` and saves the xlsx the server streams. Shown to
 * holders of the menu's export button.
 */
export function ExportButton({
  menu,
  path,
  fileName,
  label = '导出',
  body,
  query,
}: ExportButtonProps & { body?: () => unknown; query?: RequestOptions['query'] }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const hide = message.loading(`正在导出${fileName}，请稍候……`, 0);
    try {
      await exportFile(path, body?.(), { fileName, ...(query ? { query } : {}) });
      void message.success('导出完成');
    } catch {
      // the request layer has warned
    } finally {
      hide();
      setBusy(false);
    }
  };
  return (
    <Auth code={button(menu, 'export')}>
      <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()}>
        {busy ? '正在导出' : label}
      </Button>
    </Auth>
  );
}

/**
 * 导出 of a list page: the search the list shows now (its filters and sort; outside a list's
 * toolbar, the route's saved condition), every matching row.
 */
export function ListExportButton({
  extra,
  conditionKey,
  ...props
}: ExportButtonProps & {
  /** Filters the list's own fetcher adds outside its form (an organisation picked in a tree). */
  extra?: Record<string, unknown> | undefined;
  /** The list's own condition key, when it has one (ListPage `conditionKey`). */
  conditionKey?: string;
}) {
  const location = useLocation();
  const shown = useContext(ListParamsContext);
  const body = () => {
    const saved = readListCondition(conditionKey ?? listConditionKey(location.pathname));
    return { ...(shown ?? { ...(saved?.filters ?? {}), pageNum: 1, pageSize: 20 }), ...extra };
  };
  return <ExportButton {...props} body={body} />;
}
