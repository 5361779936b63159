import type { ShadowReportReply } from '@ratesmith/contracts/edge';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * Backup › Shadow mode in Chromium against the shared app: the double's
 * default profile imported, the import started in shadow from the page,
 * checkouts through the double's checkout (each showing only Shopify's
 * rates), the report, go live with Shopify's rates turned off (both confirmations),
 * Undo (the double's profiles as before), then Stop.
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

it('starts a ruleset in shadow, reports its carts, goes live with Shopify’s rates off, undoes it, and stops', async () => {
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
  // Comparisons land after their answers, so more may arrive between reads: the page shows
  // at least what the API said before the refresh, and no more than the API says after it.
  const shown = await (
    await page.waitForFunction(
      (least) => {
        const seen = Number(/(\d+) carts seen/.exec(document.body.innerText)?.[1] ?? -1);
        return seen >= least && seen;
      },
      report!.seen,
      { timeout: 30_000 },
    )
  ).jsonValue();
  const after = (await app.api('/api/shadow')).body as ShadowReportReply;
  expect(shown).toBeLessThanOrEqual(after.seen);
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

  // Go live with Shopify's own rates turned off: two confirmations, the second listing them.
  const profiles = async () =>
    JSON.stringify(
      await (await fetch(`${app.shopifyUrl}/__double/shops/${app.shop}/delivery-profiles`)).json(),
    );
  const before = await profiles();
  await page.getByRole('button', { name: 'Go live' }).click();
  const first = page.getByRole('dialog');
  await first.getByRole('checkbox', { name: /Also disable Shopify’s own rates/ }).check();
  await first.getByRole('button', { name: 'Review Shopify rates' }).click();
  const second = page.getByRole('dialog', { name: 'Disable these Shopify rates?' });
  await second.waitFor();
  const listed = await second.getByRole('listitem').allTextContents();
  const offered = (await app.api('/api/shadow/go-live')).body.rates as { zone: string }[];
  expect(listed).toHaveLength(offered.length);
  expect(listed[0]).toMatch(/^Domestic: /);
  const confirm = second.getByRole('button', {
    name: `Go live and disable ${offered.length} Shopify rates`,
  });
  await confirm.waitFor();
  await screenshot(page, 'shadow-go-live-rates');
  await expectNoAxeViolations(page, 'the go-live rates confirmation');
  await confirm.click();
  await page.getByText(`Going live disabled ${offered.length} Shopify rates.`).waitFor();
  // Checkout shows no native rate where Ratesmith takes part.
  expect((await control('checkout', checkout('CA', 'ON', 3000))).body.nativeRates).toEqual([]);
  await screenshot(page, 'shadow-live-undo');
  await expectNoAxeViolations(page, 'Ratesmith live, with Undo');

  // Undo: the confirmation lists the rates that come back; Shopify's profiles are as before.
  await page.getByRole('button', { name: 'Undo going live' }).click();
  const undo = page.getByRole('dialog', { name: 'Undo going live?' });
  expect(await undo.getByRole('listitem').allTextContents()).toEqual(listed);
  await expectNoAxeViolations(page, 'the undo confirmation');
  await undo.getByRole('button', { name: 'Undo' }).click();
  await page.getByText(/in shadow since/).waitFor();
  expect(await profiles()).toBe(before);
  expect((await control('checkout', checkout('CA', 'ON', 3000))).body.nativeRates).not.toEqual([]);

  await page.getByRole('button', { name: 'Stop shadow' }).click();
  await page.getByRole('button', { name: 'Start shadow' }).waitFor();
  await expectNoAxeViolations(page, 'shadow stopped');
  expect(((await app.api('/api/shadow')).body as ShadowReportReply).shadow).toBeNull();
  expect(problems).toEqual([]);
});
