import type { WebVitalsReport } from '@ratesmith/contracts/edge';
import type { RouteObject } from 'react-router-dom';
import { onCLS, onINP, onLCP } from 'web-vitals';
import { adminPageOf } from './admin-page';
import { VitalsQueue } from './queue';

/**
 * Measures the page view's LCP, CLS and INP with the web-vitals library
 * (its observers are buffered: what happened before this chunk loaded is
 * counted too) and hands them to `send` each time the page is hidden
 * (switching tabs, leaving the app), one report per page view. A page view
 * of no admin page of `routes` (adminPageOf) reports nothing.
 */
export function reportWebVitals(
  routes: RouteObject[],
  send: (report: WebVitalsReport) => void,
): void {
  const queue = new VitalsQueue((pathname) => adminPageOf(routes, pathname));
  const add = queue.add.bind(queue);
  onLCP(add);
  onCLS(add);
  onINP(add);
  // After the library's own listeners (on window, capturing), which report CLS and INP on hide.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') queue.take().forEach(send);
  });
}
