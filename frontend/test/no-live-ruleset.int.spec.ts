import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { appAndBrowser, atBothWidths, DESKTOP, openPage } from './harness';

/**
 * Checkout losing every rate, said before it happens: deleting or disabling
 * the enabled ruleset and importing a file that enables none each name what
 * checkout gets then (here Settings' fallback rate, by name and price), and
 * the Dashboard says so while no ruleset is enabled. axe-core on each state,
 * screenshots at 1280 × 800 and 390 × 844.
 */
const suite = appAndBrowser();

const WARNING =
  'Checkout will get no Ratesmith rates. Instead every cart will get your fallback rate “Standard” at $7.50.';

const dismissToasts = async (page: Page) => {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  while ((await dismiss.count()) > 0)
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
};

it('warns before deleting, disabling or importing away the enabled ruleset, and the Dashboard says none is', async () => {
  const { app, browser } = suite;
  const created = await app.api('/api/global-rules', { json: { name: 'Summer' } });
  const id = created.body.rule.id as string;
  expect(
    (
      await app.api(`/api/global-rules/update/${id}`, {
        json: {
          rules: [
            {
              name: 'Flat',
              raw_query: { condition: 'AND', rules: [] },
              action_type: 1,
              action_data: 5,
            },
          ],
        },
      })
    ).status,
  ).toBe(200);
  expect((await app.api(`/api/global-rules/${id}/toggle`)).body.message).toBe('Ruleset enabled.');
  // Settings' fallback rate on: the warnings name it.
  const { settings } = (await app.api('/api/settings')).body;
  const savedSettings = await app.api('/api/settings', {
    json: {
      ...settings,
      fallback_enabled: true,
      fallback_name: 'Standard',
      fallback_description: 'Ships in 5 to 8 days',
      fallback_cost: 7.5,
    },
  });
  expect(savedSettings.status).toBe(200);

  const { page, problems } = await openPage(browser, app, '/global-rules', {
    viewport: DESKTOP,
  });

  // Delete the enabled ruleset: its own question, and what checkout gets then.
  await page.getByRole('button', { name: 'Delete Summer' }).click();
  const deleting = page.getByRole('dialog', { name: 'Delete the enabled ruleset?' });
  await deleting.getByText('No ruleset will be enabled').waitFor();
  await deleting.getByText(WARNING).waitFor();
  await atBothWidths(
    page,
    'global-rules-delete-enabled',
    'the delete dialog of the enabled ruleset',
  );
  await deleting.getByRole('button', { name: 'Cancel' }).click();
  await deleting.waitFor({ state: 'detached' });

  // Disable: the same warning.
  await page.getByRole('button', { name: 'Disable Summer' }).click();
  const disabling = page.getByRole('dialog', { name: 'Disable “Summer”?' });
  await disabling.getByText(WARNING).waitFor();
  await disabling.getByRole('button', { name: 'Cancel' }).click();
  await disabling.waitFor({ state: 'detached' });

  // Import a file whose rulesets are all disabled: the plan says it before Confirm.
  const exported = (await app.api('/api/config/export')).body;
  const file = join(mkdtempSync(join(tmpdir(), 'ratesmith-import-')), 'all-disabled.json');
  writeFileSync(
    file,
    JSON.stringify({
      ...exported,
      rulesets: exported.rulesets.map((r: { enabled: boolean }) => ({ ...r, enabled: false })),
    }),
  );
  await page.getByRole('link', { name: 'Backup' }).click();
  await page.locator('input[type=file]').setInputFiles(file);
  await page.getByText('What importing all-disabled.json will change').waitFor();
  await page.getByText('No ruleset will be enabled: the file enables none').waitFor();
  await page.getByText(WARNING).waitFor();
  await page.getByRole('button', { name: 'Confirm import' }).waitFor();
  await atBothWidths(
    page,
    'config-import-disables-ruleset',
    'an import plan that enables no ruleset',
  );
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect((await app.api('/api/global-rules')).body.shop.global_rule_id).toBe(id);

  // Delete it after all: the Dashboard then says no ruleset is enabled.
  await page.getByRole('link', { name: 'Global Rules' }).click();
  await page.getByRole('button', { name: 'Delete Summer' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the enabled ruleset?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await page.getByText('No rulesets yet').waitFor();
  expect((await app.api('/api/global-rules')).body.shop.global_rule_id).toBeNull();

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('heading', { name: 'No ruleset is enabled' }).waitFor();
  await page
    .getByText(
      'Until a ruleset is enabled, checkout gets no Ratesmith rates. Instead every cart gets your fallback rate “Standard” at $7.50.',
    )
    .waitFor();
  const card = page.getByRole('region', { name: 'Checkouts your rules missed' });
  await card.getByText(/but no ruleset is enabled now/).waitFor();
  expect(await card.innerText()).not.toContain('matched every cart');
  // Product rules' words on the Dashboard: what they do to the cart's one fee.
  await page.getByText(/sets the whole cart.s fee \(Set Shipping Fee/).waitFor();
  await dismissToasts(page);
  // Only for the picture: Chromium draws a loading spinner over the training video for a moment.
  await page.waitForTimeout(1500);
  await atBothWidths(page, 'dashboard-no-ruleset', 'the Dashboard with no ruleset enabled');
  await page.getByRole('link', { name: 'Go to Global Rules' }).click();
  await page.waitForURL(/\/global-rules/);
  expect(problems).toEqual([]);
  await page.context().close();
});
