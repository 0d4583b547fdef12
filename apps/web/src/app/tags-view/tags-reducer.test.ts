import { describe, expect, it } from 'vitest';
import { tagForLocation } from './tags-store';
import {
  initialTagsState,
  nextAfterClose,
  tagsReducer,
  type TagView,
  type TagsAction,
  type TagsState,
} from './tags-reducer';

const home: TagView = { path: '/dashboard', fullPath: '/dashboard', title: '工作' };
const a: TagView = { path: '/a', fullPath: '/a', title: 'A' };
const b: TagView = { path: '/b', fullPath: '/b?x=1', title: 'B' };
const editor: TagView = { path: '/c-editor', fullPath: '/c-editor', title: 'C', noCache: true };

const run = (...actions: TagsAction[]): TagsState => actions.reduce(tagsReducer, initialTagsState);
const opened = () =>
  run(
    { type: 'initAffix', views: [home] },
    { type: 'add', view: a },
    { type: 'add', view: b },
    { type: 'add', view: editor },
  );

describe('tags view reducer', () => {
  it('adds a tab once per path; a later visit updates its fullPath', () => {
    const s = run(
      { type: 'add', view: a },
      { type: 'add', view: a },
      { type: 'add', view: { ...a, fullPath: '/a?page=2' } },
    );
    expect(s.visited).toEqual([{ ...a, fullPath: '/a?page=2' }]);
  });

  it('pins affix tabs first, once', () => {
    const s = run(
      { type: 'add', view: a },
      { type: 'initAffix', views: [home] },
      { type: 'initAffix', views: [home] },
    );
    expect(s.visited.map((v) => v.path)).toEqual(['/dashboard', '/a']);
    expect(s.visited[0]?.affix).toBe(true);
  });

  it('keeps page state for every tab, editors (noCache routes) included', () => {
    expect(opened().cached).toEqual(['/dashboard', '/a', '/b', '/c-editor']);
  });

  it('closes one tab (never an affixed one)', () => {
    const s = tagsReducer(opened(), { type: 'close', path: '/a' });
    expect(s.visited.map((v) => v.path)).toEqual(['/dashboard', '/b', '/c-editor']);
    expect(s.cached).toEqual(['/dashboard', '/b', '/c-editor']);
    expect(tagsReducer(s, { type: 'close', path: '/dashboard' })).toBe(s);
  });

  it('closes the others: the chosen tab and the affixed ones survive', () => {
    const s = tagsReducer(opened(), { type: 'closeOthers', path: '/b' });
    expect(s.visited.map((v) => v.path)).toEqual(['/dashboard', '/b']);
    expect(s.cached).toEqual(['/dashboard', '/b']);
  });

  it('closes all: only the affixed tabs survive', () => {
    const s = tagsReducer(opened(), { type: 'closeAll' });
    expect(s.visited).toEqual([{ ...home, affix: true }]);
    expect(s.cached).toEqual(['/dashboard']);
  });

  it('refresh bumps the page key of that path', () => {
    const s = run({ type: 'refresh', path: '/a' }, { type: 'refresh', path: '/a' });
    expect(s.refresh['/a']).toBe(2);
  });

  it('after closing the active tab goes to the last remaining one, else home', () => {
    expect(nextAfterClose([home, b])).toBe('/b?x=1');
    expect(nextAfterClose([])).toBe('/');
  });
});

describe('tab of a location', () => {
  it('is made for management screens only, titled by the route', () => {
    expect(tagForLocation('/factoring/pa/mgr-editor/basic-info', '?bizCode=1')).toEqual({
      path: '/factoring/pa/mgr-editor/basic-info',
      fullPath: '/factoring/pa/mgr-editor/basic-info?bizCode=1',
      title: '前期款编辑-基本信息',
      noCache: true,
      affix: false,
    });
    expect(tagForLocation('/dashboard', '')).toMatchObject({ title: '工作', affix: true });
    expect(tagForLocation('/login', '')).toBeNull();
    expect(tagForLocation('/404', '')).toBeNull();
    expect(tagForLocation('/crm/corporation/list', '')).toBeNull();
    expect(tagForLocation('/factoring/contract', '')).toBeNull();
  });
});
