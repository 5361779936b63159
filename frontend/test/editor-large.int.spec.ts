import type { Page } from 'playwright-core';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';
import { saveLargeRuleset } from './large-ruleset';

/**
 * The ruleset editor with the most filters a ruleset may hold (100 of 11
 * conditions) in Chromium against the app as `npm start` runs it:
 * find a rule by name, collapse all, expand one from the keyboard, duplicate
 * (refused at the limit, then done), move to a position, save, reload.
 */
const suite = appAndBrowser();

const rule = (page: Page, n: number) =>
  page.getByRole('region', { name: `Rule #${n}`, exact: true });
const status = (page: Page) => page.getByRole('status').filter({ hasText: /rules/ });

test('finds, collapses, duplicates and moves rules of a 100-rule ruleset, and saves the order', async () => {
  const id = await saveLargeRuleset(suite.app, 'Everywhere', 100);
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByRole('heading', { name: 'Rule #100: Zone 100 light carts' }).waitFor();
  await expect(status(page).textContent()).resolves.toBe('100 rules');

  // Search by name: one card, with the count.
  const search = page.getByLabel('Search rules by name');
  await search.fill('zone 037');
  await expect(status(page).textContent()).resolves.toBe('1 of 100 rules match “zone 037”');
  await expect(page.getByRole('region', { name: /^Rule #\d+$/ }).count()).resolves.toBe(1);
  await rule(page, 37).getByLabel('Rule name').waitFor();
  await expectNoAxeViolations(page, 'the large ruleset, searched');
  await search.fill('no such zone');
  await page.getByText('No rules match “no such zone”.').waitFor();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(status(page).textContent()).resolves.toBe('100 rules');

  // Collapse all, then open rule #37 from the keyboard.
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(page.getByLabel('Rule name').count()).resolves.toBe(0);
  await rule(page, 37).getByText('10 conditions · Add Single Shipping Fee: 4.99').waitFor();
  await page.getByRole('button', { name: 'Expand rule #37' }).focus();
  await page.keyboard.press('Enter');
  await rule(page, 37).getByLabel('Rule name').waitFor();
  await expect(page.getByLabel('Rule name').count()).resolves.toBe(1);
  await expectNoAxeViolations(page, 'the large ruleset, collapsed but one');

  // Duplicate: refused at 100 rules with the reason; done once one is removed.
  await page.getByRole('button', { name: 'Duplicate rule #37' }).click();
  await rule(page, 37)
    .getByText('A ruleset can have at most 100 rules, so Rule #37 was not duplicated.', {
      exact: false,
    })
    .waitFor();
  await rule(page, 100).getByRole('button', { name: 'Remove rule' }).click();
  await expect(status(page).textContent()).resolves.toBe('99 rules');
  await page.getByRole('button', { name: 'Duplicate rule #37' }).click();
  await page.getByRole('heading', { name: 'Rule #38: Zone 037 heavy carts (copy)' }).waitFor();
  await expect(status(page).textContent()).resolves.toBe('100 rules');

  // Move the copy to the top with the position form, from the keyboard. Past LAZY_FROM rules a
  // card's fields render once it is near the window (FilterEditor's lazy cards): in view.
  await rule(page, 38).scrollIntoViewIfNeeded();
  await rule(page, 38).getByLabel('Rule name').waitFor();
  const moveTo = page.getByRole('button', { name: 'Move to a position: rule #38' });
  await moveTo.focus();
  await page.keyboard.press('Enter');
  const position = page.getByLabel('New position for rule #38 (1 to 100)');
  // Its popover is made on the first open: Escape still closes it onto its button.
  const focused = async (target: typeof position) =>
    page.waitForFunction((el) => el === document.activeElement, await target.elementHandle(), {
      timeout: 10_000,
    });
  await focused(position);
  await page.keyboard.press('Escape');
  await position.waitFor({ state: 'hidden' });
  await focused(moveTo);
  await page.keyboard.press('Enter');
  await position.fill('1');
  await position.press('Enter');
  await page.getByRole('heading', { name: 'Rule #1: Zone 037 heavy carts (copy)' }).waitFor();
  await page.getByRole('heading', { name: 'Rule #38: Zone 037 heavy carts' }).waitFor();

  await page.getByRole('button', { name: 'Save All' }).click();
  await page.getByText('Rules saved.').waitFor();
  const names = async () =>
    ((await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`)).body.rules as any[]).map(
      (f) => f.name as string,
    );
  const expected = [
    'Zone 037 heavy carts (copy)',
    ...Array.from({ length: 99 }, (_, i) => `Zone ${String(i + 1).padStart(3, '0')}`),
  ];
  const saved = await names();
  expect(saved.map((name) => name.replace(/ (heavy|light) carts$/, ''))).toEqual(expected);

  // Opened again: the saved order.
  await page.reload();
  await page.getByRole('heading', { name: 'Rule #1: Zone 037 heavy carts (copy)' }).waitFor();
  await page.getByRole('heading', { name: 'Rule #100: Zone 099 heavy carts' }).waitFor();
  await page.getByLabel('Search rules by name').fill('037');
  await expect(status(page).textContent()).resolves.toBe('2 of 100 rules match “037”');
  await page.getByRole('button', { name: 'Collapse rule #38' }).click();
  await rule(page, 1).getByLabel('Rule name').waitFor();
  await screenshot(page, 'edit-global-rule-large');
  await expectNoAxeViolations(page, 'the large ruleset after a reload, searched');
  expect(problems).toEqual([]);
}, 600_000);

test('the 100-rule editor: the pointer entering restyles what it hovers, and media queries are shared', async () => {
  const id = await saveLargeRuleset(suite.app, 'Pointer', 100);
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await rule(page, 100).scrollIntoViewIfNeeded();
  await rule(page, 100).getByLabel('Rule name').waitFor();
  // Settled: the cards near the window have drawn their fields and nothing else is coming.
  await page.waitForLoadState('networkidle');
  let elements = 0;
  for (let stable = 0; stable < 3;) {
    await page.waitForTimeout(200);
    const now = await page.evaluate(() => document.querySelectorAll('*').length);
    stable = now === elements ? stable + 1 : 0;
    elements = now;
  }
  expect(elements).toBeGreaterThan(5000);

  // No pointer has been over the page yet: the first move puts html, body and the rest under it.
  await suite.browser.startTracing(page, { categories: ['devtools.timeline'] });
  await page.mouse.move(640, 450);
  await page.mouse.move(650, 460);
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))),
  );
  const trace = JSON.parse((await suite.browser.stopTracing()).toString('utf8')) as {
    traceEvents: { name: string; args?: { elementCount?: number } }[];
  };
  const restyled = trace.traceEvents
    .filter((event) => event.name === 'UpdateLayoutTree')
    .map((event) => event.args?.elementCount ?? 0);
  expect(restyled.length).toBeGreaterThan(0);
  // Polaris' scroll-bar colour on html:hover had Chromium restyle every element (app.css).
  expect(Math.max(...restyled)).toBeLessThan(elements / 10);

  // Polaris' Buttons, Icons and Cards ask for their breakpoints as each mounts: one list per
  // query for the page (shell/shared-media-queries.ts).
  await expect(
    page.evaluate(() => matchMedia('(min-width: 48em)') === matchMedia('(min-width: 48em)')),
  ).resolves.toBe(true);
  expect(problems).toEqual([]);
}, 120_000);

test("asks for the ruleset's filters once, as the editor's code loads, before the screen's other reads", async () => {
  const id = await saveLargeRuleset(suite.app, 'Prefetched', 100);
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const asked: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/') || url.pathname.includes('/assets/EditGlobalRule-'))
      asked.push(`${url.pathname}${url.search}`);
  });
  await page.goto(
    `${suite.app.url}/edit-global-rule/${id}?shop=${suite.app.shop}&host=${suite.app.host}`,
  );
  await page.getByRole('heading', { name: 'Rule #100: Zone 100 light carts' }).waitFor();
  const filters = `/api/global-rules/rules?globalRuleId=${id}`;
  expect(asked.filter((path) => path === filters)).toHaveLength(1);
  // The route's loader asks before the screen that renders from its answer does anything.
  expect(asked.find((path) => path.startsWith('/api/'))).toBe(filters);
  await context.close();
}, 120_000);
