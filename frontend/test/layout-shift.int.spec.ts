import type { Page } from 'playwright-core';
import { sentFilter } from '@ratesmith/contracts/testing';
import { appAndBrowser, openPage } from './harness';

/**
 * Cumulative layout shift of each page as it loads, at the width of Lighthouse's
 * mobile preset (412 × 823): Built for Shopify's bar is a CLS of at most 0.1 at p75
 * (docs/performance.md, "Web vitals from merchants' browsers"). A page whose cards
 * each show a loading state of another height than their content moves as they
 * fill; this test names the elements that moved.
 */
const suite = appAndBrowser();

interface Shift {
  value: number;
  at: number;
  hadRecentInput: boolean;
  sources: string[];
}

/** Every layout shift since the page's start (the observer's buffer), with what moved. */
function layoutShifts(page: Page): Promise<Shift[]> {
  return page.evaluate(
    () =>
      new Promise<Shift[]>((resolve) => {
        const shifts: Shift[] = [];
        const describe = (node: Node | null) => {
          if (!(node instanceof Element)) return String(node?.nodeName ?? 'gone');
          const label = node.getAttribute('aria-label') ?? node.textContent?.trim().slice(0, 50);
          return `${node.tagName.toLowerCase()}.${[...node.classList].slice(0, 2).join('.')} "${label}"`;
        };
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as {
            value: number;
            startTime: number;
            hadRecentInput: boolean;
            sources: { node: Node | null }[];
          }[])
            shifts.push({
              value: entry.value,
              at: Math.round(entry.startTime),
              hadRecentInput: entry.hadRecentInput,
              sources: entry.sources.map((s) => describe(s.node)),
            });
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(shifts), 100);
      }),
  );
}

/** CLS as web-vitals computes it: the largest session window (gaps under 1 s, at most 5 s). */
function cumulativeShift(shifts: Shift[]): number {
  let largest = 0;
  let window = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const shift of shifts.filter((s) => !s.hadRecentInput)) {
    if (shift.at - last < 1000 && shift.at - first < 5000) window += shift.value;
    else {
      window = shift.value;
      first = shift.at;
    }
    last = shift.at;
    largest = Math.max(largest, window);
  }
  return largest;
}

let rulesetId = '';
beforeAll(async () => {
  const { body } = await suite.app.api('/api/global-rules', { json: { name: 'Main' } });
  rulesetId = body.rule.id as string;
  await suite.app.api(`/api/global-rules/update/${rulesetId}`, {
    json: { rules: [sentFilter({ name: 'Everywhere' })] },
  });
  await suite.app.api(`/api/global-rules/${rulesetId}/toggle`, { method: 'GET' });
}, 60_000);

test.each([
  ['Dashboard', '/'],
  ['Global rules', '/global-rules'],
  ['the ruleset editor', '/edit-global-rule/:id'],
  ['Product rules', '/product-rules'],
  ['Settings', '/settings'],
  ['FAQ', '/faq'],
])(
  '%s moves less than a CLS of 0.1 while it loads, at 412 px',
  async (_name, path) => {
    const { page } = await openPage(suite.browser, suite.app, path.replace(':id', rulesetId), {
      viewport: { width: 412, height: 823 },
    });
    await page.waitForLoadState('networkidle');
    // Lazy chunks and their requests: past the last one, a second more.
    await page.waitForTimeout(1500);
    const shifts = await layoutShifts(page);
    const cls = cumulativeShift(shifts);
    const moved = shifts
      .filter((s) => s.value > 0.005)
      .map((s) => `${s.value.toFixed(3)} at ${s.at} ms: ${s.sources.join(' | ')}`);
    // The figure and what moved, so a failure names the elements.
    expect(
      cls < 0.1 ? 'under 0.1' : `CLS ${cls.toFixed(3)}; what moved:\n${moved.join('\n')}`,
    ).toBe('under 0.1');
    await page.context().close();
  },
  60_000,
);
