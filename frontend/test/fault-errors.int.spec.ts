import type { Page } from 'playwright-core';
import { requireChildPid, whileFrozen } from '../../tools/devstack/src/faults/processes';
import { expectNoAxeViolations, openPage, ownAppAndBrowser } from './harness';

/**
 * The editor when the rules service really stops answering (docs/reliability.md: R6):
 * the rules process of the app as `npm start` runs it is frozen (SIGSTOP:
 * its NATS connection stays open, nothing answers), so the gateway gives up
 * after its NATS timeout and answers 503 with the service's message. The
 * merchant sees that message on load (with Retry) and on Save All (a
 * toast), axe finds nothing wrong with either state, and once the process
 * runs again Retry and Save All work.
 */
// An app of its own: freezing its rules process would stop every other file's shop too.
const suite = ownAppAndBrowser();
const MESSAGE = 'The rules service did not answer in time. Please try again.';

/**
 * The rules process of this file's own app. Not any child of this process: run in band,
 * the browser tests' shared app (global-setup.ts) is a child of it too.
 */
const rulesPid = () => requireChildPid(suite.app.pid, 'services/rules/dist/main.js');

/** A toast with `text`; errors are announced as alerts, the rest as status. */
const toast = (page: Page, role: 'alert' | 'status', text: string) =>
  page.getByTestId('toasts').getByRole(role).getByText(text).waitFor({ timeout: 20_000 });

test('shows the rules outage on Save All and on load, and recovers when the service is back', async () => {
  const { body } = await suite.app.api('/api/global-rules', { json: { name: 'Outage' } });
  const id = body.rule.id as string;
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByRole('heading', { name: 'Global Rules: Outage' }).waitFor();
  await page.getByText('No rules found').waitFor();
  const pid = rulesPid();

  await whileFrozen(pid, async () => {
    // Save All while the service is frozen: an error toast with the gateway's message.
    await page.getByRole('button', { name: 'Save All' }).click();
    await toast(page, 'alert', MESSAGE);
    await expectNoAxeViolations(page, 'the editor with a save error toast');

    // A fresh load while it is frozen: the error in place of the editor, with Retry.
    await page.reload();
    await page.getByRole('alert').getByText(MESSAGE).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'the editor with a load error');
  });

  // Back: once the service answers again (NATS may have dropped the frozen connection as a slow
  // consumer, so it reconnects first), Retry loads the editor and Save All is acknowledged.
  const back = Date.now();
  while ((await suite.app.api('/api/global-rules')).status !== 200) {
    if (Date.now() - back > 30_000) throw new Error('the rules service did not come back');
    await new Promise((r) => setTimeout(r, 250));
  }
  await page.getByRole('button', { name: 'Retry' }).click();
  // The title carries the ruleset's name only once it is loaded.
  await page.getByRole('heading', { name: 'Global Rules: Outage' }).waitFor({ timeout: 20_000 });
  expect(await page.getByRole('alert').getByText(MESSAGE).count()).toBe(0);
  const saved = page.waitForResponse((r) => r.url().includes(`/api/global-rules/update/${id}`), {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Save All' }).click();
  const reply = await saved;
  expect([reply.status(), await reply.text()]).toEqual([
    200,
    expect.stringContaining('"status":true'),
  ]);
  await toast(page, 'status', 'Rules saved.');
  // The browser logs failed requests (the 503s) as console errors; nothing else may appear.
  expect(problems.filter((p) => !/status of 503/.test(p))).toEqual([]);
  await page.context().close();
}, 120_000);
