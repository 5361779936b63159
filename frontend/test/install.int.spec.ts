import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, startApp, type RunningApp } from './harness';

/** The install page and the shell's redirect to it, in Chromium against the running app. */
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const formError = (page: Page) => page.getByTestId('install-error');

describe('install', () => {
  it('sends a visitor without shop and host from the app to /install', async () => {
    const { page, problems } = await openPage(browser, app, '/global-rules', { embedded: false });
    await page.waitForURL(/\/install$/);
    await page.getByRole('heading', { name: 'Install Ratesmith' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the validation messages and hints, and sends nothing until the input is valid', async () => {
    const { page, problems } = await openPage(browser, app, '/install', { embedded: false });
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
    expect(installCalls).toEqual([]);

    // Valid input is sent; whatever the server answers ends up in the form, never a blank page.
    await shop.fill(' my-store.myshopify.com ');
    const sent = page.waitForRequest((req) => req.url().endsWith('/api/install'));
    await install.click();
    expect(JSON.parse((await sent).postData() ?? '{}')).toEqual({
      shop: 'my-store.myshopify.com',
      email: 'me@example.com',
    });
    expect(problems.filter((p) => !p.includes('status of'))).toEqual([]);
    await page.context().close();
  });

  it('in demo mode, leads from the install page into the app for the demo shop', async () => {
    const { page, problems } = await openPage(browser, app, '/', { embedded: false });
    await page.waitForURL(/\/install$/);
    await page.getByRole('link', { name: 'Open ratesmith-demo.myshopify.com' }).click();
    await page.getByRole('heading', { name: 'Welcome to Ratesmith' }).waitFor();
    await page.getByTestId('shop-name').getByText('ratesmith-demo').waitFor();
    // The session keeps shop and host: the address bar may lose them.
    await page.goto(`${app.url}/faq`);
    await page.getByRole('heading', { name: 'FAQ' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
