import type { Page } from 'playwright-core';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * Where checkout asks Ratesmith, in Chromium against the running app and the
 * Shopify double's delivery profiles (General: Domestic, Canada, Europe, Rest
 * of world; since Admin API 2026-10 the carrier service is in none of them
 * after install): the Dashboard proposes the General profile's zones, Confirm
 * adds Ratesmith to them, the Shipping zones page lists them asking, removing
 * Europe makes the Dashboard warn about the enabled ruleset's Germany, and its
 * button adds Europe back. axe-core on every state, screenshots at 1280 and 390.
 */
const suite = appAndBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** Each test opens two pages and waits on Shopify-double round trips: slow on a loaded machine. */
const TEST_TIMEOUT_MS = 180_000;

interface Zones {
  profiles: { default: boolean; zones: { name: string; ratesmith: boolean }[] }[];
  confirmed: boolean;
}

async function zonesNow(): Promise<Zones> {
  const reply = await suite.app.api('/api/shipping-zones');
  expect(reply.status).toBe(200);
  return reply.body as Zones;
}

const asking = (zones: Zones) =>
  zones.profiles.flatMap((p) => p.zones.filter((z) => z.ratesmith).map((z) => z.name));

/** The same path at phone width, for its screenshot and axe-core there. */
async function atPhoneWidth(path: string, ready: (page: Page) => Promise<void>, name: string) {
  const { page, problems } = await openPage(suite.browser, suite.app, path, { viewport: PHONE });
  await ready(page);
  await screenshot(page, name);
  await expectNoAxeViolations(page, `${name} at 390 px`);
  expect(problems).toEqual([]);
  await page.context().close();
}

beforeAll(async () => {
  // An enabled ruleset whose rule is for Germany (in the double's Europe zone).
  const created = await suite.app.api('/api/global-rules', { json: { name: 'Europe' } });
  const id = created.body.rule.id as string;
  const saved = await suite.app.api(`/api/global-rules/update/${id}`, {
    json: {
      rules: [
        {
          name: 'Germany flat',
          raw_query: {
            condition: 'AND',
            rules: [
              { type: 'condition', field: 'shipping_country', operator: 'equal', value: 'DE' },
            ],
          },
          action_type: 1,
          action_data: 12,
        },
      ],
    },
  });
  expect(saved.status).toBe(200);
  expect((await suite.app.api(`/api/global-rules/${id}/toggle`)).body.message).toBe(
    'Ruleset enabled.',
  );
});

describe('shipping zones', () => {
  it(
    'the Dashboard proposes the General profile’s zones after install; Confirm adds Ratesmith to them',
    async () => {
      const before = await zonesNow();
      expect(before.confirmed).toBe(false);
      expect(asking(before)).toEqual([]);

      const proposalReady = async (page: Page) => {
        await page.getByRole('heading', { name: 'Choose where checkout asks Ratesmith' }).waitFor();
        await page.getByRole('checkbox', { name: /Rest of world/ }).waitFor();
      };
      await atPhoneWidth('/', proposalReady, 'dashboard-zone-proposal-390');

      const { page, problems } = await openPage(suite.browser, suite.app, '/', {
        viewport: DESKTOP,
      });
      await proposalReady(page);
      const boxes = page.getByRole('checkbox');
      expect(await boxes.count()).toBe(4);
      for (const name of ['Domestic', 'Canada', 'Europe', 'Rest of world'])
        expect(await page.getByRole('checkbox', { name: new RegExp(name) }).isChecked()).toBe(true);
      await screenshot(page, 'dashboard-zone-proposal');
      await expectNoAxeViolations(page, 'the dashboard with the zone proposal');

      await page.getByRole('button', { name: 'Confirm' }).click();
      await page
        .getByTestId('toasts')
        .getByText('Checkout now asks Ratesmith for rates in these 4 shipping zones.')
        .waitFor({ timeout: 20_000 });
      await page
        .getByRole('heading', { name: 'Choose where checkout asks Ratesmith' })
        .waitFor({ state: 'detached' });
      const after = await zonesNow();
      expect(after.confirmed).toBe(true);
      expect(asking(after)).toEqual(['Domestic', 'Canada', 'Europe', 'Rest of world']);
      // Every place the ruleset names is asked: no warning.
      expect(await page.getByText(/Checkout does not ask Ratesmith/).count()).toBe(0);
      await expectNoAxeViolations(page, 'the dashboard after the proposal');
      expect(problems).toEqual([]);
      await page.context().close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the Shipping zones page lists the zones asking; removing Europe asks nothing, removing them all asks first',
    async () => {
      const listReady = async (page: Page) => {
        await page.getByRole('heading', { name: 'Shipping zones', level: 1 }).waitFor();
        await page.getByRole('button', { name: 'Remove Ratesmith from Europe' }).waitFor();
      };
      await atPhoneWidth('/shipping-zones', listReady, 'shipping-zones-390');

      const { page, problems } = await openPage(suite.browser, suite.app, '/shipping-zones', {
        viewport: DESKTOP,
      });
      await listReady(page);
      await page.getByText(/Checkout asks Ratesmith in 4 of 4 shipping zones\./).waitFor();
      expect(await page.getByText('Checkout asks Ratesmith', { exact: true }).count()).toBe(4);
      await page.getByText('Default profile').waitFor();
      await page.getByText('Rest of world', { exact: true }).first().waitFor();
      await page.getByText(/^Germany; France; United Kingdom; Italy/).waitFor();
      await screenshot(page, 'shipping-zones');
      await expectNoAxeViolations(page, 'the shipping zones page');

      // Removing every zone asks for confirmation first; Cancel changes nothing.
      await page.getByRole('button', { name: 'Remove from every zone of General profile' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(/checkout will no longer get Ratesmith’s rates anywhere/).waitFor();
      await screenshot(page, 'shipping-zones-confirm-last');
      await expectNoAxeViolations(page, 'the last-zone confirmation');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(asking(await zonesNow())).toHaveLength(4);

      await page.getByRole('button', { name: 'Remove Ratesmith from Europe' }).click();
      await page
        .getByTestId('toasts')
        .getByText('Checkout no longer asks Ratesmith for rates in this shipping zone.')
        .waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Add Ratesmith to Europe' }).waitFor();
      await page.getByText(/Checkout asks Ratesmith in 3 of 4 shipping zones\./).waitFor();
      expect(asking(await zonesNow())).toEqual(['Domestic', 'Canada', 'Rest of world']);
      await expectNoAxeViolations(page, 'the shipping zones page after a removal');
      expect(problems).toEqual([]);
      await page.context().close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the Dashboard warns that the ruleset’s Germany is asked in no zone, and its button adds Europe back',
    async () => {
      const TITLE = 'Checkout does not ask Ratesmith about places your rules are for';
      const warningReady = async (page: Page) => {
        await page.getByText(TITLE).waitFor();
        await page.getByText(/Your enabled ruleset has rules for Germany/).waitFor();
      };
      await atPhoneWidth('/', warningReady, 'dashboard-zone-warning-390');

      const { page, problems } = await openPage(suite.browser, suite.app, '/', {
        viewport: DESKTOP,
      });
      await warningReady(page);
      await screenshot(page, 'dashboard-zone-warning');
      await expectNoAxeViolations(page, 'the dashboard with the zone warning');

      await page.getByRole('button', { name: 'Add Ratesmith to Europe' }).click();
      await page
        .getByTestId('toasts')
        .getByText('Checkout now asks Ratesmith for rates in this shipping zone.')
        .waitFor({ timeout: 20_000 });
      await page.getByText(TITLE).waitFor({ state: 'detached' });
      expect(asking(await zonesNow())).toEqual(['Domestic', 'Canada', 'Europe', 'Rest of world']);
      await expectNoAxeViolations(page, 'the dashboard after the fix');
      expect(problems).toEqual([]);
      await page.context().close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'Settings › Checkout says in how many zones checkout asks Ratesmith',
    async () => {
      const ready = async (page: Page) => {
        await page.getByRole('heading', { name: 'Checkout connection' }).waitFor();
        await page.getByText('Asked in 4 of 4 shipping zones.').waitFor();
      };
      await atPhoneWidth('/settings', ready, 'settings-zone-coverage-390');
      const { page, problems } = await openPage(suite.browser, suite.app, '/settings', {
        viewport: DESKTOP,
      });
      await ready(page);
      await screenshot(page, 'settings-zone-coverage');
      await expectNoAxeViolations(page, 'settings with zone coverage');
      expect(problems).toEqual([]);
      await page.context().close();
    },
    TEST_TIMEOUT_MS,
  );
});
