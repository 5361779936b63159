import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import {
  appAndBrowser,
  expectNoAxeViolations,
  openPage,
  screenshot,
  settledValue,
} from './harness';

/**
 * A merchant's first hour in the rate preview, in Chromium against the app as
 * `npm start` runs it (demo mode): a picked product fills in its price and
 * weight in the shop's unit (pounds here), a result goes as soon as the cart
 * is invalid, and "Send this cart as a test checkout" goes through the Shopify
 * double's checkout and the app's signed callback into Recent checkouts, at
 * the preview's rate.
 */
const suite = appAndBrowser({ weightUnit: 'POUNDS' });
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

it('fills a product in pounds, hides a result for an invalid cart, and sends a test checkout', async () => {
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
  // The merchant's step since Admin API 2026-10: Ratesmith takes part in every zone.
  const zones = await fetch(
    `${app.shopifyUrl}/__double/shops/${app.shop}/delivery-profiles/carrier`,
    {
      method: 'POST',
      body: JSON.stringify({ carrierService: 'Ratesmith', zones: 'all' }),
    },
  );
  expect(zones.status).toBe(200);
  // Until the rate engine has the enabled ruleset.
  for (const deadline = Date.now() + 20_000; ;) {
    const quoted = await app.api('/api/rate-preview', {
      json: {
        rate: {
          destination: { country: 'CA' },
          currency: 'USD',
          items: [{ price: 1, quantity: 1 }],
        },
      },
    });
    if (quoted.body.rates?.[0]?.total_price === '900') break;
    if (Date.now() > deadline) throw new Error('the ruleset never reached the rate engine');
    await new Promise((r) => setTimeout(r, 200));
  }

  const tee = DEMO_CATALOG.find((p) => p.title === 'Classic Cotton T-Shirt')!;
  const { page, problems } = await openPage(browser, app, `/edit-global-rule/${rulesetId}`, {
    viewport: DESKTOP,
  });
  const preview = page.getByRole('region', { name: 'Rate preview' });
  const line = preview.getByRole('group', { name: 'Cart line 1' });
  await line.getByLabel('Weight (lb each)').waitFor();
  await preview.getByLabel('Destination country').fill('Canada');
  await page.getByRole('option', { name: 'Canada (CA)' }).click();
  // Shopify's checkout always has the province of a Canadian address; its zone lists them.
  await preview.getByLabel('State or province').selectOption({ label: 'Ontario' });
  await line.getByLabel('Product (optional)').selectOption({ label: tee.title });
  // Its first variant: 19.99 and 180 g, which is 0.397 lb (1 lb = 453.59237 g).
  expect(tee.variants[0]).toMatchObject({ price: '19.99', grams: 180 });
  expect(await settledValue(line.getByLabel('Weight (lb each)'), '0.397')).toBe('0.397');
  expect(await line.getByLabel('Price').inputValue()).toBe('19.99');
  await line.scrollIntoViewIfNeeded();
  await screenshot(page, 'preview-product-filled-pounds');
  await expectNoAxeViolations(page, 'the preview with a product filled in, in pounds');
  await page.setViewportSize(PHONE);
  await line.scrollIntoViewIfNeeded();
  await screenshot(page, 'preview-product-filled-pounds-390');
  await expectNoAxeViolations(page, 'the preview with a product filled in, at 390 px');
  await page.setViewportSize(DESKTOP);

  const result = preview.getByRole('region', { name: 'Preview result' });
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $9.00').waitFor();

  // An invalid cart: the answer goes at once, and why is said.
  await line.getByLabel('Price').fill('');
  await preview
    .getByText('The last result is hidden until the cart is valid again: Line 1: enter a price')
    .waitFor();
  expect(await result.count()).toBe(0);
  await screenshot(page, 'preview-result-hidden-invalid-cart');
  await expectNoAxeViolations(page, 'the preview with its result hidden');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'preview-result-hidden-invalid-cart-390');
  await expectNoAxeViolations(page, 'the preview with its result hidden, at 390 px');
  await page.setViewportSize(DESKTOP);

  // The same cart again is the same answer; a different one is marked out of date.
  await line.getByLabel('Price').fill('19.98');
  await preview.getByText('Out of date').waitFor();
  await line.getByLabel('Price').fill('19.99');
  await result.getByText('Shipping: $9.00').waitFor();
  expect(await preview.getByText('Out of date').count()).toBe(0);

  await preview.getByRole('button', { name: 'Send this cart as a test checkout' }).click();
  const sent = preview.getByRole('region', { name: 'Test checkout' });
  await sent.getByText('Checkout asked Ratesmith (zone Canada) and got 1 rate.').waitFor();
  await sent.getByText('Shipping: $9.00').waitFor();
  await sent.getByText('Checkout got the same rates as this preview.').waitFor();
  await sent.scrollIntoViewIfNeeded();
  await screenshot(page, 'preview-test-checkout');
  await expectNoAxeViolations(page, 'the preview with a test checkout sent');
  await page.setViewportSize(PHONE);
  await sent.scrollIntoViewIfNeeded();
  await screenshot(page, 'preview-test-checkout-390');
  await expectNoAxeViolations(page, 'the preview with a test checkout sent, at 390 px');
  await page.setViewportSize(DESKTOP);

  // Recent checkouts lists it (batches reach the rules service every 300 ms here).
  await sent.getByRole('link', { name: 'Open Recent checkouts' }).click();
  await page.waitForURL((url) => url.pathname === '/recent-checkouts');
  const row = page.getByRole('row').filter({ hasText: 'Shipping: $9.00' }).first();
  for (const deadline = Date.now() + 20_000; !(await row.count());) {
    if (Date.now() > deadline) throw new Error('the test checkout never reached Recent checkouts');
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByRole('heading', { name: 'Recent checkouts' }).waitFor();
  }
  for (const text of ['CA', '$19.99'])
    await row.getByText(text, { exact: false }).first().waitFor();
  await screenshot(page, 'recent-checkouts-after-test-checkout');
  await expectNoAxeViolations(page, 'Recent checkouts after a test checkout');
  const listed = (await app.api('/api/recent-checkouts')).body.checkouts as {
    rates: { total_price: string }[];
    lines: { price: number; grams: number; product_id: string }[];
  }[];
  expect(listed[0]!.rates.map((r) => r.total_price)).toEqual(['900']);
  expect(listed[0]!.lines).toMatchObject([{ price: 1999, grams: 180, product_id: String(tee.id) }]);
  expect(problems).toEqual([]);
  await page.context().close();
});
