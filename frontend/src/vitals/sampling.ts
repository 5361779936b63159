/** One page view in this many reports its web vitals. */
export const SAMPLE_ONE_IN = 10;

/**
 * Set to true on `window` before the app loads, every page view reports (the
 * browser tests do, with playwright's addInitScript). Only script already
 * running in the page can set it: no link or query can make other merchants'
 * browsers report more, and what one browser sends stays bounded by its
 * shop's /api rate limit.
 */
export const EVERY_PAGE_VIEW_FLAG = '__ratesmithVitalsEveryPageView';

/** Whether this page view reports its web vitals. */
export function isSampled(win: Window = window, random: () => number = Math.random): boolean {
  return (
    (win as unknown as Record<string, unknown>)[EVERY_PAGE_VIEW_FLAG] === true ||
    random() < 1 / SAMPLE_ONE_IN
  );
}
