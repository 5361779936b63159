import { checkout, rateKeyOf } from './checkout';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * Per-filter analytics in Chromium against the running app: real carrier
 * callbacks are counted by the engine, the Dashboard's card draws its charts
 * and lists the filter that matched and the one that never did, and the
 * ruleset editor shows the same counts beside each filter.
 */
// Batches reach the rules service every 300 ms on the shared app (5 s by default).
const suite = appAndBrowser();

const CHECKOUTS = 3;
const countryIs = (value: string) => ({
  condition: 'AND',
  rules: [{ type: 'condition', field: 'shipping_country', operator: 'equal', value }],
});

interface Counted {
  filterName: string;
  matched: number;
  stopped: number;
  feeCents: number;
  neverMatched: boolean;
}

it('counts checkouts per filter on the Dashboard and beside each filter in the editor', async () => {
  const { app, browser } = suite;
  const created = await app.api('/api/global-rules', { json: { name: 'Analytics' } });
  const rulesetId = created.body.rule.id as string;
  const saved = await app.api(`/api/global-rules/update/${rulesetId}`, {
    json: {
      rules: [
        { name: 'Canada flat', raw_query: countryIs('CA'), action_type: 1, action_data: 9 },
        { name: 'Japan flat', raw_query: countryIs('JP'), action_type: 1, action_data: 30 },
      ],
    },
  });
  expect(saved.status).toBe(200);
  expect((await app.api(`/api/global-rules/${rulesetId}/toggle`)).body.message).toBe(
    'Ruleset enabled.',
  );

  // Checkouts to Canada until the enabled ruleset answers (9.00), then CHECKOUTS more.
  const rateKey = await rateKeyOf(app);
  for (const deadline = Date.now() + 20_000; ;) {
    if ((await checkout(app, rateKey))[0]?.total_price === '900') break;
    if (Date.now() > deadline) throw new Error('the ruleset never answered');
    await new Promise((r) => setTimeout(r, 200));
  }
  for (let i = 0; i < CHECKOUTS; i++) await checkout(app, rateKey);

  // The API's figures once every answered checkout is counted: what the pages must show.
  let filters: Counted[];
  for (const deadline = Date.now() + 20_000; ;) {
    const reply = await app.api('/api/analytics?days=30');
    expect(reply.status).toBe(200);
    filters = reply.body.filters as Counted[];
    if ((filters[0]?.matched ?? 0) >= CHECKOUTS + 1) break;
    if (Date.now() > deadline) throw new Error(`never counted: ${JSON.stringify(reply.body)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const [canada, japan] = filters;
  expect(canada).toMatchObject({ filterName: 'Canada flat', feeCents: canada!.matched * 900 });
  expect(japan).toMatchObject({ filterName: 'Japan flat', matched: 0, neverMatched: true });

  const { page, problems } = await openPage(browser, app, '/');
  const card = page.getByRole('region', { name: 'Checkouts in the last 30 days' });
  await card.waitFor();
  // Both charts drawn by the lazily loaded chunk.
  await card.locator('.rs-chart svg').nth(1).waitFor();
  expect(await card.locator('.rs-chart svg').count()).toBeGreaterThanOrEqual(2);
  await card.getByRole('heading', { name: 'Checkouts per day by rate' }).waitFor();
  await card.getByRole('heading', { name: 'Regular rate fees' }).waitFor();
  const top = card.getByRole('listitem').filter({ hasText: 'Canada flat' });
  expect(await top.textContent()).toBe(
    `Canada flat in Analytics (ruleset): matched ${canada!.matched} times, stopped here ${canada!.stopped} · added $${(canada!.feeCents / 100).toFixed(2)}`,
  );
  const never = card.getByRole('link', { name: 'Japan flat' });
  expect(await never.getAttribute('href')).toBe(`/edit-global-rule/${rulesetId}`);
  // The fee chart's table: every checkout of the window paid $9.00.
  const fees = card.getByRole('table', { name: 'Checkouts by regular rate fee' });
  expect(await fees.getByRole('row', { name: /\$5\.01 to \$10\.00/ }).textContent()).toBe(
    `$5.01 to $10.00${canada!.matched}`,
  );
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'dashboard-analytics');
  await expectNoAxeViolations(page, 'the Dashboard with analytics');

  await never.click();
  await page.waitForURL((url) => url.pathname === `/edit-global-rule/${rulesetId}`);
  const rule1 = page.getByRole('region', { name: 'Rule #1' });
  await rule1.getByText(`Matched ${canada!.matched} times in 30 days`).waitFor();
  await rule1
    .getByText(`stopped here ${canada!.stopped} · added $${(canada!.feeCents / 100).toFixed(2)}`)
    .waitFor();
  await page
    .getByRole('region', { name: 'Rule #2' })
    .getByText('No checkout matched in 30 days')
    .waitFor();
  await screenshot(page, 'editor-filter-analytics');
  await expectNoAxeViolations(page, 'the ruleset editor with counts');
  expect(problems).toEqual([]);
  await page.context().close();
});
