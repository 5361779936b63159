import type { Page } from 'playwright-core';
import { DEMO_SHOP, expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';

/** The install page and the shell's redirect to it, in Chromium against the running app. */
const suite = appAndBrowser();

const formError = (page: Page) => page.getByTestId('install-error');

describe('install', () => {
  it('sends a visitor without shop and host from the app to /install', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/global-rules', {
      embedded: false,
    });
    await page.waitForURL(/\/install$/);
    await page.getByRole('heading', { name: 'Install Ratesmith' }).waitFor();
    await expectNoAxeViolations(page, 'the install page');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the validation messages and hints, and sends nothing until the input is valid', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/install', {
      embedded: false,
    });
    const installCalls: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/install')) installCalls.push(req.url());
    });
    const shop = page.getByLabel('Store subdomain');
    const email = page.getByLabel('Purchase email');
    const install = page.getByRole('button', { name: 'Install' });

    await install.click();
    await expect(formError(page).textContent()).resolves.toBe('Please provide a valid email.');
    await page.getByText('Shopify subdomain is required').waitFor();
    await page.getByText('Email is required').waitFor();

    await email.fill('me at example.com');
    await install.click();
    await expect(formError(page).textContent()).resolves.toBe(
      'Please enter a valid email address.',
    );
    await page.getByText('Please enter a valid email', { exact: true }).waitFor();

    await email.fill('  me@example.com ');
    await install.click();
    await expect(formError(page).textContent()).resolves.toBe(
      'Please provide your Shopify subdomain.',
    );

    await shop.fill('my-store.example.com');
    await install.click();
    await expect(formError(page).textContent()).resolves.toBe(
      'Please enter a valid Shopify subdomain (e.g., your-store.myshopify.com)',
    );
    await page.getByText('Should end with .myshopify.com').waitFor();
    await screenshot(page, 'install');
    await expectNoAxeViolations(page, 'the install page with validation errors');
    expect(installCalls).toEqual([]);

    // Valid input is sent, trimmed.
    await shop.fill(' my-store.myshopify.com ');
    const sent = page.waitForRequest((req) => req.url().endsWith('/api/install'));
    await install.click();
    expect(JSON.parse((await sent).postData() ?? '{}')).toEqual({
      shop: 'my-store.myshopify.com',
      email: 'me@example.com',
    });
    // It installs for real, leaving for Shopify's authorize page (the double, on 127.0.0.1).
    expect(
      problems.filter((p) => !p.includes('request outside the app: http://127.0.0.1:')),
    ).toEqual([]);
    await page.context().close();
  });

  it('in demo mode, leads from the install page into the app for the demo shop', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/', { embedded: false });
    await page.waitForURL(/\/install$/);
    // The page offers the first of the gateway's demo shops: on the shared app that is
    // DEMO_SHOP (ratesmith-demo), which only this test opens.
    await page.getByRole('link', { name: `Open ${DEMO_SHOP}` }).click();
    await page.getByRole('heading', { name: 'Welcome to Ratesmith' }).waitFor();
    await page.getByTestId('shop-name').getByText('ratesmith-demo').waitFor();
    // The session keeps shop and host: the address bar may lose them.
    await page.goto(`${suite.app.url}/faq`);
    await page.getByRole('heading', { name: 'FAQ' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('installs through Shopify (the local double) and lands in the app', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/install', {
      embedded: false,
    });
    await page.getByLabel('Store subdomain').fill(suite.app.shop);
    await page.getByLabel('Purchase email').fill('owner@example.com');
    const sent = page.waitForResponse((res) => res.url().endsWith('/api/install'));
    await page.getByRole('button', { name: 'Install' }).click();
    expect((await sent).status()).toBe(200);
    // install → Shopify's authorize page (approved at once by the double) → callback → the app.
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.has('host'));
    await page.getByRole('heading', { name: 'Welcome to Ratesmith' }).waitFor();
    await page.getByRole('link', { name: 'Global Rules', exact: true }).click();
    await page.getByRole('button', { name: 'Add Ruleset' }).first().waitFor();
    // The only other origin the browser met is Shopify's (here: the double).
    expect(
      problems.filter((p) => !p.includes('request outside the app: http://127.0.0.1:')),
    ).toEqual([]);
    await page.context().close();
  });
});
