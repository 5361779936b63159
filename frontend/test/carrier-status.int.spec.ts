import { expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';

/**
 * A shop whose plan lacks carrier-calculated shipping (the double refuses
 * its carrier service as Shopify does): the merchant is told on the
 * Dashboard and in Settings, and "Check again" asks Shopify again.
 */
const suite = appAndBrowser({ carrierCalculatedShipping: false });

const TITLE = 'Checkout cannot use Ratesmith on your current Shopify plan';

describe('carrier status without carrier-calculated shipping', () => {
  it('the Dashboard warns with what to do and Shopify’s reason', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/');
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
    const { page, problems } = await openPage(suite.browser, suite.app, '/settings');
    await page.getByRole('heading', { name: 'Checkout connection' }).waitFor();
    await page.getByText('Plan required', { exact: true }).waitFor();
    await page.getByText(TITLE).waitFor();
    await screenshot(page, 'settings-needs-plan');
    await expectNoAxeViolations(page, 'settings with the plan warning');
    const status = await suite.app.api('/api/carrier-service');
    expect(status.body.carrier_service).toMatchObject({ state: 'needs_plan' });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
