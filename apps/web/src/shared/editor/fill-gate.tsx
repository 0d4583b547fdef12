import { createContext, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { ConfigProvider, Spin } from 'antd';
import { create } from 'zustand';

/**
 * Records on their way into a form (docs/architecture.md "Editors keep their input"). The first
 * fill of `useFormFill` always writes, so input typed before its record arrives would be lost:
 * while the record is on its way the fill declares it here, and the form takes no input. The
 * declaration goes to the nearest `FillSection` (a part of an editor that loads on its own), or
 * else to the page (by its path), whose inputs the editor frame closes (`UnsavedInput`, which also
 * stands around the forms outside the frame).
 */
interface PageWaits {
  /** Per page path, how many of its fills wait for their record. */
  waits: Readonly<Record<string, number>>;
}

const usePageWaits = create<PageWaits>()(() => ({ waits: {} }));

function countPageWait(path: string, by: 1 | -1): void {
  const { waits } = usePageWaits.getState();
  const n = (waits[path] ?? 0) + by;
  const { [path]: _old, ...rest } = waits;
  usePageWaits.setState({ waits: n > 0 ? { ...rest, [path]: n } : rest });
}

/** A fill of the page at `path` waits for its record; the returned function ends the wait. */
export function waitOnPage(path: string): () => void {
  countPageWait(path, 1);
  return () => countPageWait(path, -1);
}

/** Whether a fill of the page at `path` (outside any section) still waits for its record. */
export function usePageWaiting(path: string): boolean {
  return usePageWaits((s) => (s.waits[path] ?? 0) > 0);
}

/** The section a fill belongs to: `wait()` starts a wait and returns its end. */
export const FillSectionContext = createContext<{ wait: () => () => void } | null>(null);

/**
 * A part of an editor that loads its record on its own (a tab's list, asked for when the tab first
 * shows): its fills wait here, and only its inputs are closed meanwhile, under a spinner.
 */
export function FillSection({ children }: { children: ReactNode }) {
  const [waiting, setWaiting] = useState(0);
  const section = useMemo(
    () => ({
      wait: () => {
        setWaiting((n) => n + 1);
        return () => setWaiting((n) => n - 1);
      },
    }),
    [],
  );
  return (
    <FillSectionContext.Provider value={section}>
      <InputGate closed={waiting > 0} spin>
        {children}
      </InputGate>
    </FillSectionContext.Provider>
  );
}

const BARE: CSSProperties = { border: 0, margin: 0, padding: 0, minWidth: 0 };

/**
 * Inputs that take nothing while `closed` (with `spin`, under a spinner, whose mask also takes the
 * pointer): every antd input inside is disabled, and a native fieldset disables every native
 * control inside even where a form or an input sets `disabled={false}` of its own (antd lets an
 * explicit value win over the context's), so the keyboard cannot reach them either. The tree
 * stays the same open or closed: nothing inside is mounted again.
 */
export function InputGate({
  closed,
  spin,
  children,
}: {
  closed: boolean;
  spin?: boolean;
  children: ReactNode;
}) {
  const outer = ConfigProvider.useConfig().componentDisabled;
  const gate = (
    <ConfigProvider componentDisabled={closed || outer}>
      <fieldset disabled={closed} style={BARE}>
        {children}
      </fieldset>
    </ConfigProvider>
  );
  return spin ? <Spin spinning={closed}>{gate}</Spin> : gate;
}
