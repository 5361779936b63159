import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  expectNoAxeViolations,
  appAndBrowser,
  openPage,
  screenshot,
  settledValue,
} from './harness';

/** A ruleset from a starter template, then Backup: export, and import with a plan first. */
const suite = appAndBrowser();

const toast = (page: Page, text: string) =>
  page.getByTestId('toasts').getByText(text).first().waitFor();

describe('starter templates and backup', () => {
  it('creates a ruleset from a template, exports the shop, imports an edited file after its plan', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/global-rules');
    await page.getByText('No rulesets yet').waitFor();

    // Add Ruleset from a template: its name comes with it, the editor opens with its filters.
    await page.getByRole('button', { name: 'Add Ruleset' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Start from').waitFor();
    await dialog.getByText('Free shipping over an amount', { exact: true }).click();
    expect(await dialog.getByLabel('Free shipping over an amount').isChecked()).toBe(true);
    // The suggested name is set by an effect after the choice renders.
    expect(
      await settledValue(dialog.getByLabel('Ruleset name'), 'Free shipping over an amount'),
    ).toBe('Free shipping over an amount');
    await dialog.getByText(/Carts of \$50\.00 or more ship free/).waitFor();
    await screenshot(page, 'add-ruleset-templates');
    await expectNoAxeViolations(page, 'the Add Ruleset dialog with its templates');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.waitForURL(/\/edit-global-rule\//);
    await page.getByText(/It starts from "Free shipping over an amount"/).waitFor();
    await page.getByRole('textbox', { name: 'Rule name' }).first().waitFor();
    const names = await page
      .getByRole('textbox', { name: 'Rule name' })
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(names).toEqual(['Free shipping over the amount', 'Standard rate']);

    // Export: a file with the ruleset and its two filters.
    await page.getByRole('link', { name: 'Backup' }).click();
    await page.getByRole('button', { name: 'Export configuration' }).waitFor();
    await expectNoAxeViolations(page, 'the Backup page');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export configuration' }).click(),
    ]);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(download.suggestedFilename()).toMatch(/^ratesmith-config-\d{4}-\d{2}-\d{2}\.json$/);
    expect(exported).toMatchObject({ format: 'ratesmith-config', version: 1, product_rules: [] });
    expect(exported.rulesets).toEqual([
      expect.objectContaining({ name: 'Free shipping over an amount', enabled: false }),
    ]);

    // The file edited: the ruleset under a second name, a product rule of the store's
    // and one of a product this store does not have, and a carrier name.
    const product = DEMO_CATALOG[0]!;
    const edited = {
      ...exported,
      rulesets: [{ ...exported.rulesets[0], name: 'Imported free shipping', enabled: true }],
      product_rules: [
        { product_id: String(product.id), enabled: true, filters: [] },
        { product_id: '424242', enabled: true, filters: [] },
      ],
      settings: { ...exported.settings, carrier_name: 'Imported Post' },
    };
    const file = join(mkdtempSync(join(tmpdir(), 'ratesmith-import-')), 'shop-config.json');
    writeFileSync(file, JSON.stringify(edited));

    const before = await suite.app.api('/api/global-rules');
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByText('What importing shop-config.json will change').waitFor();
    await page.getByText('Product 424242 is not in this store').waitFor();
    await page.getByText('Imported free shipping: 2 rules, enabled').waitFor();
    await page.getByText(`${product.title}: 0 rules`).waitFor();
    await page.getByText('Carrier name: (none) → Imported Post').waitFor();
    await page.getByText('Enabled ruleset: (none) → Imported free shipping').waitFor();
    // The plan changed nothing.
    expect((await suite.app.api('/api/global-rules')).body).toEqual(before.body);
    await screenshot(page, 'config-import-plan');
    await expectNoAxeViolations(page, 'the import plan');

    await page.getByRole('button', { name: 'Confirm import' }).click();
    await toast(page, 'Configuration imported.');
    await page.getByText('Imported from shop-config.json').waitFor();
    const after = await suite.app.api('/api/global-rules');
    expect(
      after.body.globalRules.map((r: { name: string; active: boolean }) => [r.name, r.active]),
    ).toEqual([
      ['Free shipping over an amount', false],
      ['Imported free shipping', true],
    ]);
    const productRules = await suite.app.api('/api/product-rules');
    expect(
      productRules.body.products.data.map((r: { product_id: string }) => r.product_id),
    ).toEqual([String(product.id)]);
    expect((await suite.app.api('/api/settings')).body.settings.carrier_name).toBe('Imported Post');

    // A broken file: the errors in the editor's words, nothing changed.
    const broken = {
      ...edited,
      rulesets: [
        { ...edited.rulesets[0], filters: [{ ...edited.rulesets[0].filters[0], name: '' }] },
      ],
    };
    writeFileSync(file, JSON.stringify(broken));
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByText('Ruleset "Imported free shipping": Rule #1 needs a name').waitFor();
    expect(await page.getByRole('button', { name: 'Confirm import' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page, 'an import plan with errors');
    expect((await suite.app.api('/api/global-rules')).body).toEqual(after.body);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
