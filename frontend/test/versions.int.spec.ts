import type { Page } from 'playwright-core';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * A ruleset's versions in the admin: two Save Alls keep two versions, the
 * Versions dialog lists them and shows what one changed, a restore brings the
 * old filters back into the editor (replacing unsaved edits), and the
 * Dashboard lists the changes that reached checkout.
 */
const suite = appAndBrowser();

const toast = (page: Page, text: string) =>
  page.getByTestId('toasts').getByText(text, { exact: true }).waitFor();

describe('ruleset versions', () => {
  it('saves twice, shows the versions and a diff, restores the first save, and lists it on the Dashboard', async () => {
    const created = await suite.app.api('/api/global-rules', { json: { name: 'Summer shipping' } });
    const id = created.body.rule.id as string;
    // Enabling it is version 1: its changes reach checkout.
    await suite.app.api(`/api/global-rules/${id}/toggle`);
    const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
    await page.getByText('No rules found').waitFor();

    // Save 1 (version 2): one rule, a 5.00 fee on every cart.
    await page.getByRole('button', { name: 'Add Rule' }).click();
    const rule = page.getByRole('region', { name: /^Rule #1/ });
    await rule.getByLabel('Rule name').fill('Flat fee');
    await rule.getByRole('button', { name: 'Add condition' }).click();
    await rule.getByLabel('Field').selectOption('cart_price');
    await rule.getByLabel('Operator').selectOption('greater_or_equal');
    await rule.getByLabel('Amount', { exact: true }).first().fill('0');
    await rule.getByLabel('Action').selectOption('5');
    await rule.getByLabel('Amount', { exact: true }).last().fill('5');
    await page.getByRole('button', { name: 'Save All' }).click();
    await toast(page, 'Rules saved.');

    // Save 2 (version 3): the fee and the condition change.
    await rule.getByLabel('Amount', { exact: true }).last().fill('7.50');
    await rule.getByLabel('Amount', { exact: true }).first().fill('20');
    await page.getByRole('button', { name: 'Save All' }).click();
    await page.getByTestId('toasts').getByText('Rules saved.').nth(1).waitFor();
    await expectSaved(id, 7.5);
    // The toasts cover the page's actions in the screenshots below.
    const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();

    // An unsaved edit the restore will replace.
    await rule.getByLabel('Rule name').fill('Not saved');
    await page.getByRole('heading', { name: 'Rule #1: Not saved' }).waitFor();

    await page.getByRole('button', { name: 'Versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions' });
    const list = dialog.getByRole('list', { name: 'Versions, newest first' });
    await list.getByText('Version 3 · Saved (current)').waitFor();
    await list.getByText('Version 2 · Saved', { exact: true }).waitFor();
    await list.getByText('Version 1 · Enabled').waitFor();
    await list.getByText('1 rule change: 1 changed').waitFor();
    await list
      .getByText(/by staff member 1$/)
      .first()
      .waitFor();
    await screenshot(page, 'ruleset-versions');
    await expectNoAxeViolations(page, 'the versions dialog');

    await dialog.getByRole('button', { name: 'View changes of version 3' }).click();
    const diff = page.getByRole('dialog', { name: 'Version 3: changes' });
    const changes = diff.getByRole('list', { name: 'Changes' });
    await changes.getByText('Changed rule "Flat fee"').waitFor();
    await changes.getByText('Amount: 5 → 7.5').waitFor();
    await changes
      .getByText(
        'Changed condition: Cart Price greater or equal 0 → Cart Price greater or equal 20',
      )
      .waitFor();
    await diff.getByText('Compared with version 2.').waitFor();
    await screenshot(page, 'ruleset-version-diff');
    await expectNoAxeViolations(page, 'the changes of a version');

    await diff.getByRole('button', { name: 'Back to versions' }).click();
    await page
      .getByRole('dialog', { name: 'Versions' })
      .getByRole('button', { name: 'Restore version 2' })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Restore version 2?' });
    await confirm.getByText('Your unsaved edits on this page will be replaced.').waitFor();
    await expectNoAxeViolations(page, 'the restore confirmation');
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await toast(page, 'Version 2 restored as version 4.');
    await confirm.waitFor({ state: 'detached' });

    // The editor holds the restored filters, as saved.
    await page.getByRole('heading', { name: 'Rule #1: Flat fee' }).waitFor();
    expect(await rule.getByLabel('Rule name').inputValue()).toBe('Flat fee');
    expect(await rule.getByLabel('Amount', { exact: true }).last().inputValue()).toMatch(
      /^5(\.00)?$/,
    );
    await expectSaved(id, 5);

    // The Dashboard lists the active ruleset's changes, newest first.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const activity = page.getByRole('list', { name: 'Recent changes at checkout, newest first' });
    await activity.getByText('Ruleset Summer shipping: restored (version 4)').waitFor();
    const rows = await activity.getByRole('listitem').allTextContents();
    expect(rows.map((r) => /\(version (\d+)\)/.exec(r)?.[1])).toEqual(['4', '3', '2', '1']);
    expect(rows[0]).toContain('Restored version 2');
    await screenshot(page, 'dashboard-activity');
    await expectNoAxeViolations(page, 'the Dashboard with recent changes');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

async function expectSaved(id: string, fee: number) {
  const { body } = await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`);
  expect(body.rules.map((r: { action_data: number }) => r.action_data)).toEqual([fee]);
}
