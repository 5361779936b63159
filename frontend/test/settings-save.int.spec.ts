import type { Page } from 'playwright-core';
import { expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';

/**
 * Settings keep no edit silently, in Chromium against the running app: the
 * save bar (Save, Discard) while there are unsaved edits, a prompt before
 * leaving by the app's navigation or by a reload, and each refused value said
 * at its field (aria-invalid, described by its message), announced and kept
 * until it is fixed; bump shipping that is on needs its pricing and its cost.
 */
const suite = appAndBrowser();
const PHONE = { width: 390, height: 844 };

/** Scrolled to the top: the save bar stays in view as the page scrolls, so a whole-page picture shows it where it starts. */
const toTop = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));

const saveBar = (page: Page) => page.getByRole('region', { name: 'Unsaved changes' });

/** The text of what describes a field (aria-describedby): its help and its error. */
const describedBy = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((field) =>
    (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

describe('the save bar', () => {
  it('shows Save and Discard while there are unsaved edits, and Discard goes back', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/settings');
    const name = page.getByLabel('Carrier name');
    await name.waitFor();
    const stored = await name.inputValue();
    expect(await saveBar(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);

    await name.fill('Ratesmith Express');
    await saveBar(page).waitFor();
    await toTop(page);
    await screenshot(page, 'settings-save-bar');
    await expectNoAxeViolations(page, 'settings with the save bar');

    await saveBar(page).getByRole('button', { name: 'Discard' }).click();
    await saveBar(page).waitFor({ state: 'detached' });
    expect(await name.inputValue()).toBe(stored);

    await page.setViewportSize(PHONE);
    await name.fill('Ratesmith Express');
    await saveBar(page).waitFor();
    await toTop(page);
    await screenshot(page, 'settings-save-bar-390');
    await expectNoAxeViolations(page, 'settings with the save bar at 390 px');
    await saveBar(page).getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('toasts').getByText('Settings saved.').waitFor();
    await saveBar(page).waitFor({ state: 'detached' });
    expect((await suite.app.api('/api/settings')).body.settings.carrier_name).toBe(
      'Ratesmith Express',
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('asks before leaving with unsaved edits: by the navigation and by a reload', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/settings');
    const description = page.getByLabel('Carrier description');
    await description.fill('Unsaved words');

    await page.getByRole('link', { name: 'FAQ' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Your changes to these settings are not saved.');
    await expectNoAxeViolations(page, 'settings, the leave prompt');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await description.inputValue()).toBe('Unsaved words');

    // A reload asks too (the browser's own prompt, beforeunload); dismissed, the page stays.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (prompt) => {
        resolve(prompt.type());
        void prompt.dismiss();
      }),
    );
    void page.reload({ timeout: 3_000 }).catch(() => undefined);
    expect(await asked).toBe('beforeunload');
    expect(await description.inputValue()).toBe('Unsaved words');

    await page.getByRole('link', { name: 'FAQ' }).click();
    await dialog.getByRole('button', { name: 'Leave page' }).click();
    await page.waitForURL((url) => url.pathname === '/faq');
    expect((await suite.app.api('/api/settings')).body.settings.carrier_description).not.toBe(
      'Unsaved words',
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('refused settings, at their fields', () => {
  it('refuses bump shipping without its pricing or cost at each field, announced and kept until fixed', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/settings');
    await page.getByLabel('Offer bump shipping').check();
    await page.getByLabel('Bump shipping name').fill('Express');
    await page.getByLabel('Bump shipping cost').fill('');
    const action = page.getByLabel('Bump shipping action');
    const cost = page.getByLabel('Bump shipping cost');
    expect(await action.getAttribute('aria-invalid')).not.toBe('true');
    await saveBar(page).getByRole('button', { name: 'Save' }).click();

    const list = page.getByRole('alert').filter({ hasText: 'need fixing' });
    await list.waitFor();
    expect(await action.getAttribute('aria-invalid')).toBe('true');
    expect(await cost.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, 'Bump shipping action')).toContain(
      'Choose how bump shipping is priced: a percent or a static fee on top.',
    );
    expect(await describedBy(page, 'Bump shipping cost')).toContain(
      'Enter the bump shipping cost: a number such as 15 (a percent) or 4.99 (a fee), 0 for none.',
    );
    // The first refused field has the focus, its message read with it.
    expect(await action.evaluate((field) => field === document.activeElement)).toBe(true);
    await toTop(page);
    await screenshot(page, 'settings-field-errors');
    await expectNoAxeViolations(page, 'settings with errors at their fields');

    // Not a toast that goes by itself: still there after 7 s (a toast lasts 5).
    await page.waitForTimeout(7_000);
    expect(await action.getAttribute('aria-invalid')).toBe('true');
    expect(await list.count()).toBe(1);

    await page.setViewportSize(PHONE);
    await toTop(page);
    await screenshot(page, 'settings-field-errors-390');
    await expectNoAxeViolations(page, 'settings with errors at their fields at 390 px');

    // Each goes when its field is fixed.
    await action.selectOption('2');
    expect(await action.getAttribute('aria-invalid')).not.toBe('true');
    expect(await cost.getAttribute('aria-invalid')).toBe('true');
    await cost.fill('4.99');
    expect(await cost.getAttribute('aria-invalid')).not.toBe('true');
    await list.waitFor({ state: 'detached' });
    await saveBar(page).getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('toasts').getByText('Settings saved.').waitFor();
    expect((await suite.app.api('/api/settings')).body.settings).toMatchObject({
      bump_shipping_enabled: true,
      bump_shipping_action: 2,
      bump_shipping_cost: 4.99,
    });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the gateway refuses them too, with a 400 that names each field (a request without the page's check)", async () => {
    const before = (await suite.app.api('/api/settings')).body.settings;
    const res = await suite.app.api('/api/settings', {
      json: {
        ...before,
        bump_shipping_enabled: true,
        bump_shipping_action: null,
        bump_shipping_cost: '',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      bump_shipping_action: 'Choose how bump shipping is priced: a percent or a static fee on top.',
      bump_shipping_cost:
        'Enter the bump shipping cost: a number such as 15 (a percent) or 4.99 (a fee), 0 for none.',
    });
    expect((await suite.app.api('/api/settings')).body.settings).toEqual(before);
  });
});
