import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useState,
  type ReactNode,
} from 'react';

/**
 * Notices at the top of a page that appear only once their data answers (a
 * banner when checkout cannot reach Ratesmith, the shipping-zone proposal)
 * would push everything below them down as they arrive: a layout shift the
 * merchant sees, and what Built for Shopify's CLS bar (0.1 at p75) counts.
 * So the page's body is laid out but kept hidden until every notice has
 * said it is settled (shown, or known to be not needed), or until
 * `maxWaitMs` has passed, so that a slow read never hides the page for long.
 * A hidden element's move is no layout shift; the body appears once, in place.
 */
const Report = createContext<(id: string, settled: boolean) => void>(() => undefined);

/** A notice says whether it has settled; one that never calls this is not waited for. */
export function useNoticeSettled(settled: boolean): void {
  const report = useContext(Report);
  const id = useId();
  useEffect(() => {
    report(id, settled);
  }, [report, id, settled]);
  // A notice that goes away waits for nothing.
  useEffect(() => () => report(id, true), [report, id]);
}

/** A notice's answer read by the page itself (no component of its own to report it). */
export function NoticeSettled({ when }: { when: boolean }) {
  useNoticeSettled(when);
  return null;
}

/** A lazy notice's Suspense fallback: its chunk is still loading, so it has not settled. */
export function UnsettledNotice() {
  useNoticeSettled(false);
  return null;
}

export function NoticesFirst({
  notices,
  children,
  maxWaitMs = 2500,
}: {
  notices: ReactNode;
  children: ReactNode;
  maxWaitMs?: number;
}) {
  const [pending, setPending] = useState<ReadonlySet<string>>(() => new Set());
  const [waitedEnough, setWaitedEnough] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const report = useCallback((id: string, settled: boolean) => {
    setPending((current) => {
      if (settled === !current.has(id)) return current;
      const next = new Set(current);
      if (settled) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => setWaitedEnough(true), maxWaitMs);
    return () => clearTimeout(timer);
  }, [maxWaitMs]);
  // The notices report in their first effects: the body waits one render for them.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const settled = mounted && (pending.size === 0 || waitedEnough);
  // Once shown, the body stays: a notice loading again later (a retry) does not hide it.
  useEffect(() => {
    if (settled) setRevealed(true);
  }, [settled]);
  const shown = revealed || settled;
  return (
    <>
      <Report.Provider value={report}>{notices}</Report.Provider>
      <div aria-busy={!shown} style={shown ? undefined : { visibility: 'hidden' }}>
        {children}
      </div>
    </>
  );
}
