/** A screen still loading: a spinner of our own, so that the login path needs no antd (boot.css). */
export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-label="加载中">
      <span className="portal-spinner" />
    </div>
  );
}
