import type { Browser } from 'playwright-core';
import {
  DEMO_SHOP,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  startApp,
  type RunningApp,
} from './harness';

/**
 * A shop whose plan lacks carrier-calculated shipping (the double refuses
 * its carrier service as Shopify does): the merchant is told on the
 * Dashboard and in Settings, and "Check again" asks Shopify again.
 */
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startApp({ SHOPIFY_DOUBLE_SHOPS_WITHOUT_CARRIER_PLAN: DEMO_SHOP }),
    launchBrowser(),
  ]);
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const TITLE = 'Checkout cannot use Ratesmith on your current Shopify plan';

describe('carrier status without carrier-calculated shipping', () => {
  it('the Dashboard warns with what to do and Shopify’s reason', async () => {
    const { page, problems } = await openPage(browser, app, '/');
    await page.getByText(TITLE).waitFor();
    await page.getByText(/Advanced Shopify or higher/).waitFor();
    await page.getByText(/Details: .*Carrier Calculated Shipping must be enabled/).waitFor();
    await screenshot(page, 'dashboard-needs-plan');
    await expectNoAxeViolations(page, 'the dashboard with the plan warning');

    await page.getByRole('button', { name: 'Check again' }).click();
    await page
      .getByTestId('toasts')
      .getByText('Checked with Shopify: checkout still cannot use Ratesmith.')
      .waitFor();
    await page.getByText(TITLE).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Settings shows the state as a badge beside the same warning', async () => {
    const { page, problems } = await openPage(browser, app, '/settings');
    await page.getByRole('heading', { name: 'Checkout connection' }).waitFor();
    await page.getByText('Plan required', { exact: true }).waitFor();
    await page.getByText(TITLE).waitFor();
    await screenshot(page, 'settings-needs-plan');
    await expectNoAxeViolations(page, 'settings with the plan warning');
    const status = await app.api('/api/carrier-service');
    expect(status.body.carrier_service).toMatchObject({ state: 'needs_plan' });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
