import type { ShadowReportReply } from '@ratesmith/contracts/edge';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * Backup › Shadow mode in Chromium against the shared app: the double's
 * default profile imported, the import started in shadow from the page,
 * checkouts through the double's checkout (each showing only Shopify's
 * rates), the report, then Stop.
 */
const suite = appAndBrowser();

const checkout = (country: string, province: string | null, cents: number) => ({
  rate: {
    origin: { country: 'US', postal_code: '94103', province: 'CA' },
    destination: { country, province, postal_code: '10001' },
    items: [{ name: 'Mug', quantity: 1, grams: 700, price: cents, requires_shipping: true }],
    currency: 'USD',
    locale: 'en',
  },
});

it('starts a ruleset in shadow, reports its carts against Shopify’s rates, and stops', async () => {
  const { app, browser } = suite;
  const plan = await app.api('/api/shipping-import');
  const imported = await app.api('/api/shipping-import', { json: { plan: plan.body.plan } });
  const rulesetId = imported.body.ruleset.id as string;
  const control = (path: string, body: unknown) =>
    fetch(`${app.shopifyUrl}/__double/shops/${app.shop}/${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
  expect(
    (await control('delivery-profiles/carrier', { carrierService: 'Ratesmith', zones: 'all' }))
      .status,
  ).toBe(200);

  const { page, problems } = await openPage(browser, app, '/backup');
  const select = page.getByLabel('Ruleset to run in shadow');
  await select.waitFor();
  expect(await select.inputValue()).toBe(rulesetId);
  await page.getByRole('button', { name: 'Start shadow' }).click();
  await page.getByText(/in shadow since/).waitFor();

  // Checkouts until the report has a dozen (the engine picks the shadow up within moments).
  const carts = [
    checkout('US', 'NY', 2500),
    checkout('US', 'CA', 7500),
    checkout('CA', 'ON', 3000),
    checkout('DE', null, 4000),
    checkout('JP', null, 1500),
  ];
  let report: ShadowReportReply | undefined;
  for (let i = 0, deadline = Date.now() + 40_000; Date.now() < deadline; i++) {
    const sent = await control('checkout', carts[i % carts.length]);
    // Checkout shows only Shopify's rates: Ratesmith's answer is always empty.
    for (const asked of sent.body.carrierRates) expect(asked.body).toEqual({ rates: [] });
    report = (await app.api('/api/shadow')).body as ShadowReportReply;
    if (report.seen >= 12) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  expect(report!.seen).toBeGreaterThanOrEqual(12);

  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByText(new RegExp(`${report!.seen}\\d* carts seen`)).waitFor();
  await page.getByText(/^Same price: \d+$/).waitFor();
  const links = page.getByRole('link', { name: 'Open in preview' });
  if (report!.largest.length > 0) {
    expect(await links.count()).toBe(report!.largest.length);
    expect(await links.first().getAttribute('href')).toMatch(
      new RegExp(`^/edit-global-rule/${rulesetId}\\?country=[A-Z]{2}&currency=USD&line=`),
    );
  }
  await screenshot(page, 'shadow-report');
  await expectNoAxeViolations(page, 'the shadow report');

  await page.getByRole('button', { name: 'Stop shadow' }).click();
  await page.getByRole('button', { name: 'Start shadow' }).waitFor();
  await expectNoAxeViolations(page, 'shadow stopped');
  expect(((await app.api('/api/shadow')).body as ShadowReportReply).shadow).toBeNull();
  expect(problems).toEqual([]);
});
