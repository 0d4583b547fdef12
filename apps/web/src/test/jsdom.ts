import { vi } from 'vitest';

/** What antd needs from a browser that jsdom lacks. Import first in component tests. */
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
const original = window.getComputedStyle;
window.getComputedStyle = (el: Element, pseudo?: string | null) => original(el, pseudo ? undefined : pseudo);

// antd component tests render real forms and tables: on a busy 2-core machine they outrun 5 s.
vi.setConfig({ testTimeout: 30_000 });
