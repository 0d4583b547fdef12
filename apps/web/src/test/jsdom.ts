import { act } from 'react';
import { configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { Modal, message, notification } from 'antd';
// The CommonJS build is the instance the tests load (antd has no "exports" map).
import { actDestroy as resetMessageHolder, actWrapper as messageActWrapper } from 'antd/lib/message';
import {
  actDestroy as resetNotificationHolder,
  actWrapper as notificationActWrapper,
} from 'antd/lib/notification';
import { prefilterStyleRules } from './style-rules';

/** What antd needs from a browser that jsdom lacks; the web project's setup file. */
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: vi.fn((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}
// Role queries ask for many elements' styles: the rules that cannot match are set aside cheaply.
prefilterStyleRules(document);
const original = window.getComputedStyle;
window.getComputedStyle = (el: Element, pseudo?: string | null) => original(el, pseudo ? undefined : pseudo);

// antd component tests render real forms and tables: on a busy 2-core machine they outrun 5 s.
vi.setConfig({ testTimeout: 30_000 });
// findBy* and waitFor poll until what a screen shows after a call is there. Their 1 s default raced
// the niced unit lane's load, not the screen (ServerPage's 刷新 in a clean-clone run of 2026-11-30,
// bench/README.md "Eleventh pass"); 10 s is the stall bar, as the browser tests' `expect.poll`.
configure({ asyncUtilTimeout: 10_000 });

// antd's static message, notification and Modal.confirm render into React roots of their own
// that testing-library's cleanup does not know, and antd is loaded once per worker, so those
// roots outlive the test file. An update still queued when the file's window was torn down
// (a message closing on its timer) then ran in the next file and React threw "window is not
// defined". antd's test hooks make those updates synchronous under act; each test closes what
// it opened, and each file starts with holders of its own document.
// What testing-library declares for its own act; antd's static methods now use act too.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
messageActWrapper(act);
notificationActWrapper(act);
resetMessageHolder();
resetNotificationHolder();
afterEach(() => {
  act(() => {
    message.destroy();
    notification.destroy();
    Modal.destroyAll();
  });
});
