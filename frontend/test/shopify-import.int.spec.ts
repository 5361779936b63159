import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * Backup › Import from Shopify in Chromium against the shared app: the
 * double's default General profile (Domestic, Canada, Europe, Rest of
 * world) read through the gateway and auth, the plan, then Confirm.
 */
const suite = appAndBrowser();

describe('Import from Shopify', () => {
  it('shows the plan with what it leaves out, then writes one disabled ruleset', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, '/backup');
    await page.getByRole('button', { name: 'Review the import' }).click();
    await page
      .getByText('4 zones, 8 rates → 1 ruleset of 6 rules; 2 rates cannot be imported:')
      .waitFor();
    await page.getByText(/^Express \(Domestic\): checkout shows it next to “Standard”/).waitFor();
    await page
      .getByText(/^Free shipping \(Canada\): checkout shows it next to “Standard”/)
      .waitFor();
    await page.getByText('Domestic: Standard, $5.00').waitFor();
    await page.getByText('Rest of world: International, $35.00').waitFor();
    await screenshot(page, 'import-from-shopify-plan');
    await expectNoAxeViolations(page, 'the import plan');

    const before = await suite.app.api('/api/global-rules');
    await page.getByRole('button', { name: 'Confirm import' }).click();
    await page.getByText(/^Imported as “Imported from Shopify \d{4}-\d{2}-\d{2}”$/).waitFor();
    await expectNoAxeViolations(page, 'the import done');
    const after = await suite.app.api('/api/global-rules');
    expect(after.body.globalRules).toHaveLength(before.body.globalRules.length + 1);
    expect(after.body.shop.global_rule_id).toBe(before.body.shop.global_rule_id);
    const imported = after.body.globalRules.find((r: { name: string }) =>
      r.name.startsWith('Imported from Shopify'),
    );
    const rules = await suite.app.api(`/api/global-rules/rules?globalRuleId=${imported.id}`);
    expect(rules.body.rules.map((r: { shipping_name: string }) => r.shipping_name)).toEqual([
      'Free shipping',
      'Standard',
      'Standard',
      'Heavy',
      'International',
      'International',
    ]);
    expect(problems).toEqual([]);
  });
});
