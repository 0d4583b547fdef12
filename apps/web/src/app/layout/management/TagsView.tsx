import { useEffect, useRef, useState } from 'react';
import { Dropdown, type MenuProps } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { normalizePath } from '../../../shared/routing/route-table';
import { nextAfterClose, type TagView } from '../../tags-view/tags-reducer';
import { dispatchTags, useTagsStore } from '../../tags-view/tags-store';
import { TAGS_SUSPEND_SCROLL } from '../settings-store';
import { confirmDiscard } from '../../../shared/editor/unsaved';

export const TAG_MENU = {
  refresh: '刷新',
  close: '关闭',
  closeOthers: '关闭其它',
  closeAll: '关闭所有',
} as const;

/** The tab strip (docs/architecture.md "Layouts and their numbers"): Refresh, Close, Close Others, Close All; suspends past scroll 92. */
export function TagsView() {
  const visited = useTagsStore((s) => s.visited);
  const location = useLocation();
  const navigate = useNavigate();
  const active = normalizePath(location.pathname);
  const [suspended, setSuspended] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onScroll = () => setSuspended(window.scrollY > TAGS_SUSPEND_SCROLL);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    scroller.current
      ?.querySelector<HTMLElement>('.tags-view-item.is-active')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active, visited.length]);

  // Closing a tab releases its page: an editor with unsaved input asks first (shared/editor).
  const closing = (keep: (v: TagView) => boolean) =>
    confirmDiscard(visited.filter((v) => !v.affix && !keep(v)).map((v) => v.path));
  const close = async (tag: TagView) => {
    if (!(await closing((v) => v.path !== tag.path))) return;
    dispatchTags({ type: 'close', path: tag.path });
    if (tag.path === active) navigate(nextAfterClose(useTagsStore.getState().visited));
  };
  const closeOthers = async (tag: TagView) => {
    if (!(await closing((v) => v.path === tag.path))) return;
    dispatchTags({ type: 'closeOthers', path: tag.path });
    if (tag.path !== active) navigate(tag.fullPath);
  };
  const closeAll = async () => {
    if (!(await closing(() => false))) return;
    dispatchTags({ type: 'closeAll' });
    const remaining = useTagsStore.getState().visited;
    if (!remaining.some((v) => v.path === active)) navigate(nextAfterClose(remaining));
  };
  const refresh = async (tag: TagView) => {
    // 刷新 mounts the page afresh: its unsaved input would be lost too.
    if (!(await confirmDiscard([tag.path]))) return;
    dispatchTags({ type: 'refresh', path: tag.path });
    if (tag.path !== active) navigate(tag.fullPath);
  };

  const menuFor = (tag: TagView): MenuProps => ({
    items: [
      { key: 'refresh', label: TAG_MENU.refresh },
      { key: 'close', label: TAG_MENU.close, disabled: !!tag.affix },
      { key: 'closeOthers', label: TAG_MENU.closeOthers },
      { key: 'closeAll', label: TAG_MENU.closeAll },
    ],
    onClick: ({ key }) => {
      if (key === 'refresh') void refresh(tag);
      else if (key === 'close') void close(tag);
      else if (key === 'closeOthers') void closeOthers(tag);
      else void closeAll();
    },
  });

  return (
    <div className={`tags-view-container ${suspended ? 'is-suspended' : ''}`} data-testid="tags-view">
      <div className="tags-view-wrapper" ref={scroller}>
        {visited.map((tag) => (
          <Dropdown key={tag.path} trigger={['contextMenu']} menu={menuFor(tag)}>
            <span
              className={`tags-view-item ${tag.path === active ? 'is-active' : ''}`}
              data-path={tag.path}
              role="tab"
              aria-selected={tag.path === active}
              onClick={() => navigate(tag.fullPath)}
              onMouseUp={(e) => {
                if (e.button === 1 && !tag.affix) void close(tag);
              }}
            >
              {tag.title}
              {tag.affix ? null : (
                <CloseOutlined
                  className="tags-view-item__close"
                  aria-label={`关闭 ${tag.title}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    void close(tag);
                  }}
                />
              )}
            </span>
          </Dropdown>
        ))}
      </div>
    </div>
  );
}
