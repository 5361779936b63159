import type { Page } from 'playwright-core';
import { expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';

/** The global rules list: add, toggle, duplicate, delete, filter counts. */
const suite = appAndBrowser();

const toast = (page: Page, text: string) =>
  page.getByTestId('toasts').getByText(text, { exact: true }).waitFor();
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

describe('global rules', () => {
  it('creates a ruleset, enables it, duplicates it and deletes the copy', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/global-rules');
    await page.getByText('No rulesets yet').waitFor();
    await expectNoAxeViolations(page, 'the global rules list, empty');

    // Add Ruleset: a name is required.
    await page.getByRole('button', { name: 'Add Ruleset' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByText('Please enter a ruleset name').waitFor();
    await expectNoAxeViolations(page, 'the Add Ruleset dialog with its error');
    await dialog.getByLabel('Ruleset name').fill('Summer shipping');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await toast(page, 'Ruleset created.');
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Summer shipping').getByText('No rules yet').waitFor();

    // Enable it: the cross becomes a tick.
    const toggles: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/toggle')) toggles.push(req.url());
    });
    await page.getByRole('button', { name: 'Disabled: enable Summer shipping' }).click();
    await toast(page, 'Ruleset enabled.');
    await page.getByRole('button', { name: 'Summer shipping is enabled' }).waitFor();
    expect(toggles).toHaveLength(1);

    // The active one again: an info message, and no call.
    await page.getByRole('button', { name: 'Summer shipping is enabled' }).click();
    await toast(page, 'This ruleset is already enabled.');
    expect(toggles).toHaveLength(1);

    // The filter count is the real one.
    const { body } = await suite.app.api('/api/global-rules');
    const id = body.globalRules[0].id;
    const filter = (name: string) => ({
      name,
      raw_query: {
        condition: 'AND',
        rules: [{ type: 'condition', field: 'cart_price', operator: 'greater_than', value: 0 }],
      },
      action_type: 1,
      action_data: 5,
    });
    await suite.app.api(`/api/global-rules/update/${id}`, {
      json: { rules: [filter('Flat'), filter('Extra')] },
    });
    await page.reload();
    await row(page, 'Summer shipping').getByText('Contains 2 rules').waitFor();

    // Duplicate: a working copy with its filters.
    await page.getByRole('button', { name: 'Duplicate Summer shipping' }).click();
    await toast(page, 'Ruleset duplicated.');
    await row(page, 'Copy of Summer shipping').getByText('Contains 2 rules').waitFor();
    await page.getByRole('button', { name: 'Disabled: enable Copy of Summer shipping' }).waitFor();
    await screenshot(page, 'global-rules');
    await expectNoAxeViolations(page, 'the global rules list with rulesets');

    // Delete the copy: cancel first, then confirm.
    await page.getByRole('button', { name: 'Delete Copy of Summer shipping' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete Copy of Summer shipping' }).click();
    await page.getByRole('dialog').getByText('“Copy of Summer shipping” and its rules').waitFor();
    await screenshot(page, 'global-rules-delete');
    await expectNoAxeViolations(page, 'the delete ruleset dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Ruleset deleted.');
    await row(page, 'Copy of Summer shipping').waitFor({ state: 'detached' });

    const after = await suite.app.api('/api/global-rules');
    expect(after.body.globalRules.map((r: { name: string }) => r.name)).toEqual([
      'Summer shipping',
    ]);
    expect(after.body.shop.global_rule_id).toBe(id);

    // Edit opens the ruleset's editor.
    await page.getByRole('button', { name: 'Edit Summer shipping' }).click();
    await page.waitForURL(new RegExp(`/edit-global-rule/${id}$`));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows an outage as an error with Retry, and the list once the gateway answers again', async () => {
    const { page } = await openPage(suite.browser, suite.app, '/dashboard');
    // The gateway's answer while the rules service is down (it cannot be stopped alone here).
    await page.route('**/api/global-rules', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          status: false,
          message: 'The rules service is not available right now',
        }),
      }),
    );
    await page.getByRole('link', { name: 'Global Rules' }).click();
    await page
      .getByRole('alert')
      .getByText('The rules service is not available right now')
      .waitFor();
    await screenshot(page, 'global-rules-error');
    await expectNoAxeViolations(page, 'the global rules list with a load error');
    await page.unroute('**/api/global-rules');
    await page.getByRole('button', { name: 'Retry' }).click();
    await row(page, 'Summer shipping').waitFor();
    await page.context().close();
  });
});
