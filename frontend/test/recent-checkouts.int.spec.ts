import { checkout, rateKeyOf } from './checkout';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * Recent checkouts in Chromium against the running app: a real carrier
 * callback is sampled by the engine, the page lists it, opening it shows the
 * preview's step table, and "Open in preview" pre-fills the enabled ruleset's
 * preview with its cart.
 */
// Batches reach the rules service every 300 ms on the shared app (5 s by default).
const suite = appAndBrowser();

it('a checkout appears in Recent checkouts, opens its trace, and opens in the preview', async () => {
  const { app, browser } = suite;
  const created = await app.api('/api/global-rules', { json: { name: 'Canada' } });
  const rulesetId = created.body.rule.id as string;
  const saved = await app.api(`/api/global-rules/update/${rulesetId}`, {
    json: {
      rules: [
        {
          name: 'Canada flat',
          raw_query: {
            condition: 'AND',
            rules: [
              { type: 'condition', field: 'shipping_country', operator: 'equal', value: 'CA' },
            ],
          },
          action_type: 1,
          action_data: 9,
        },
      ],
    },
  });
  expect(saved.status).toBe(200);
  expect((await app.api(`/api/global-rules/${rulesetId}/toggle`)).body.message).toBe(
    'Ruleset enabled.',
  );

  // Checkouts until the enabled ruleset answers (9.00), then until the list holds one.
  const rateKey = await rateKeyOf(app);
  for (const deadline = Date.now() + 20_000; ;) {
    const rates = await checkout(app, rateKey);
    if (rates[0]?.total_price === '900') break;
    if (Date.now() > deadline) throw new Error('the ruleset never answered');
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const deadline = Date.now() + 20_000; ;) {
    const listed = (await app.api('/api/recent-checkouts')).body.checkouts as {
      rates: unknown[];
    }[];
    if (listed.some((c) => c.rates.length > 0)) break;
    if (Date.now() > deadline) throw new Error('the checkout never reached the list');
    await new Promise((r) => setTimeout(r, 300));
  }

  const { page, problems } = await openPage(browser, app, '/recent-checkouts');
  await page.getByRole('heading', { name: 'Recent checkouts' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: 'Shipping: $9.00' }).first();
  await row.waitFor();
  for (const text of ['CA', '$50.00', ' ms'])
    await row.getByText(text, { exact: false }).first().waitFor();
  await screenshot(page, 'recent-checkouts');
  await expectNoAxeViolations(page, 'the recent checkouts list');

  await row.getByRole('button', { name: /View trace/ }).click();
  const trace = page.getByRole('region', { name: 'Checkout trace' });
  const result = trace.getByRole('region', { name: 'Preview result' });
  await result.getByRole('cell', { name: 'Global: Canada flat' }).waitFor();
  await result.getByText('Regular fee: $9.00').waitFor();
  await trace.scrollIntoViewIfNeeded();
  await screenshot(page, 'recent-checkout-trace');
  await expectNoAxeViolations(page, "a recent checkout's trace");

  await trace.getByRole('link', { name: 'Open in preview' }).click();
  await page.waitForURL(
    (url) =>
      url.pathname === `/edit-global-rule/${rulesetId}` &&
      url.searchParams.get('country') === 'CA' &&
      url.searchParams.getAll('line').join() === '2500_2_300_7',
  );
  const line = page.getByRole('group', { name: 'Cart line 1' });
  expect(await line.getByLabel('Price').inputValue()).toBe('25.00');
  expect(await line.getByLabel('Quantity').inputValue()).toBe('2');
  await page
    .getByRole('region', { name: 'Preview result' })
    .getByText('Regular fee: $9.00')
    .waitFor();
  expect(problems).toEqual([]);
  await page.context().close();
});
