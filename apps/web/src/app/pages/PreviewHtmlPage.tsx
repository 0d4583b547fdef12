import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Empty } from 'antd';
import { readPreviewHtml } from '../../shared/print/preview-html';

/** The HTML preview, rendered in a sandboxed frame without scripts. */
export default function PreviewHtmlPage() {
  const [params] = useSearchParams();
  const html = readPreviewHtml(params.get('key'));
  useEffect(() => {
    document.title = 'HTML预览';
  }, []);
  if (!html) return <Empty style={{ marginTop: 120 }} description="没有可预览的内容" />;
  return (
    <iframe
      title="HTML预览"
      className="preview-html"
      sandbox="allow-same-origin allow-modals"
      srcDoc={html}
    />
  );
}
