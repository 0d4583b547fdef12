import { useContext, useState } from 'react';
import { useLocation } from 'react-router';
import { Button, message } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { button } from '@portal/contract/menus';
import { listConditionKey, readListCondition } from './list-condition';
import { ListParamsContext } from './list-params-context';
import { Auth } from '../permission/Auth';
import { exportFile } from '../request/http';

/**
 * 导出 of a list page: the search the list shows now (its filters and sort; outside a list's
 * toolbar, the route's saved condition), every matching row, as xlsx streamed by the server.
 * Shown to holders of the menu's export button.
 */
export function ListExportButton({
  menu,
  path,
  fileName,
  extra,
}: {
  menu: string;
  path: string;
  fileName: string;
  /** Filters the list's own fetcher adds outside its form (an organisation picked in a tree). */
  extra?: Record<string, unknown> | undefined;
}) {
  const location = useLocation();
  const shown = useContext(ListParamsContext);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    const saved = readListCondition(listConditionKey(location.pathname));
    const params = shown ?? { ...(saved?.filters ?? {}), pageNum: 1, pageSize: 20 };
    setBusy(true);
    const hide = message.loading(`正在导出${fileName}，请稍候……`, 0);
    try {
      await exportFile(path, { ...params, ...extra }, { fileName });
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
        {busy ? '正在导出' : '导出'}
      </Button>
    </Auth>
  );
}
