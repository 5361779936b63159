/** One page view in this many reports its web vitals. */
export const SAMPLE_ONE_IN = 10;

/**
 * Set to true on `window` before the app loads, every page view reports; set
 * to false, none does. The browser tests set it on every page they open, with
 * playwright's addInitScript (frontend/test/harness.ts): true where a test
 * reads the gateway's web-vitals metrics, false elsewhere, so that the pages
 * of other test files on the same app add nothing to those counts. Only
 * script already running in the page can set it: no link or query can make
 * other merchants' browsers report more, and what one browser sends stays
 * bounded by its shop's /api rate limit.
 */
export const EVERY_PAGE_VIEW_FLAG = '__ratesmithVitalsEveryPageView';

/** Whether this page view reports its web vitals. */
export function isSampled(win: Window = window, random: () => number = Math.random): boolean {
  const flag = (win as unknown as Record<string, unknown>)[EVERY_PAGE_VIEW_FLAG];
  if (flag === true || flag === false) return flag;
  return random() < 1 / SAMPLE_ONE_IN;
}
