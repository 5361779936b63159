import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../../tools/devstack/src/servers';
import { expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';
import {
  CAPTION_BAR,
  recordWebm,
  VIDEO_HEIGHT,
  VIDEO_WIDTH,
  vttCueTexts,
  webVtt,
  type Frame,
} from './webm-recorder';

/**
 * The training video is this walkthrough: it drives the real admin (add a
 * ruleset, a rule with a nested group, enable the ruleset, preview a cart)
 * and checks at each step what the merchant sees. With
 * RECORD_TRAINING_VIDEO=1 (`npm run video:record`) the screenshots of the
 * steps become frontend/public/training/ratesmith-walkthrough.webm and .vtt,
 * which the gateway serves with the built frontend. Without it, the test
 * fails when a step no longer works or its caption no longer matches the
 * committed video: then record it again.
 */
const RECORD = process.env.RECORD_TRAINING_VIDEO === '1';
const RECORD_COMMAND = 'npm run video:record';
const PUBLIC_DIR = join(repoRoot, 'frontend', 'public', 'training');
const DIST_DIR = join(repoRoot, 'frontend', 'dist', 'training');
const NAME = 'ratesmith-walkthrough';

const suite = appAndBrowser();
const frames: Frame[] = [];

const toast = (page: Page, text: string) =>
  page.getByTestId('toasts').getByText(text, { exact: true }).waitFor();
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

/**
 * The admin as openPage opens it, but framed for the video: the page below
 * the caption bar, magnified 1.25 times so its text stays legible in a
 * 640-pixel-wide player.
 */
async function openWalkthroughPage(): Promise<{ page: Page; problems: string[] }> {
  const zoom = 1.25;
  return openPage(suite.browser, suite.app, '/', {
    viewport: { width: VIDEO_WIDTH / zoom, height: (VIDEO_HEIGHT - CAPTION_BAR) / zoom },
    deviceScaleFactor: zoom,
  });
}

/** One step of the video: `focus` scrolled to the middle, the screen as a frame, its caption. */
async function step(page: Page, caption: string, focus?: Locator): Promise<void> {
  if (focus) await focus.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  frames.push({ png, caption });
  // A toast filmed once is enough: it would otherwise linger into the next steps.
  const dismiss = page.getByTestId('toasts').getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 5 && (await dismiss.count()) > 0; i++) await dismiss.first().click();
}

test(
  'walks through the admin: a ruleset, a rule with a nested group, enabled, a cart previewed',
  async () => {
    try {
      await walkThroughTheAdmin();
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\n\nThe training video is recorded from this walkthrough: once the steps work again, run \`${RECORD_COMMAND}\` and commit the new video.`,
        { cause: err },
      );
    }
    if (RECORD) {
      const { webm, cues, durationMs } = await recordWebm(suite.browser, frames);
      mkdirSync(PUBLIC_DIR, { recursive: true });
      writeFileSync(join(PUBLIC_DIR, `${NAME}.webm`), webm);
      writeFileSync(join(PUBLIC_DIR, `${NAME}.vtt`), webVtt(cues));
      // The running app serves frontend/dist: the new files are played below.
      mkdirSync(DIST_DIR, { recursive: true });
      for (const ext of ['webm', 'vtt'])
        copyFileSync(join(PUBLIC_DIR, `${NAME}.${ext}`), join(DIST_DIR, `${NAME}.${ext}`));
      console.log(
        `recorded ${NAME}.webm: ${(webm.length / 1e6).toFixed(2)} MB, ${(durationMs / 1000).toFixed(1)} s, ${cues.length} steps`,
      );
    }
  },
  RECORD ? 180_000 : 90_000,
);

/** The steps of the video, each checked as the merchant sees it. */
async function walkThroughTheAdmin(): Promise<void> {
  // From the Dashboard (not filmed: it shows this very video) to the rulesets.
  const { page, problems } = await openWalkthroughPage();
  await page.getByRole('heading', { name: 'Welcome to Ratesmith' }).waitFor();
  await page.getByRole('link', { name: 'Edit Rules' }).click();
  await page.waitForURL(/\/global-rules$/);

  // 1. A ruleset.
  await page.getByText('No rulesets yet').waitFor();
  await step(
    page,
    'Ratesmith sets your shipping fee at checkout with rulesets. Edit Rules opens Global Rules.',
  );
  await page.getByRole('button', { name: 'Add Ruleset' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Ruleset name').fill('Canada shipping');
  await step(page, 'In Global Rules, select Add Ruleset, name the ruleset and select Add.');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await toast(page, 'Ruleset created.');
  await dialog.waitFor({ state: 'detached' });
  await row(page, 'Canada shipping').getByText('No rules yet').waitFor();
  await page.getByRole('button', { name: 'Disabled: enable Canada shipping' }).waitFor();
  await step(
    page,
    'The new ruleset is listed, disabled and without rules yet. Select Edit to add its rules.',
  );

  // 2. A rule with a nested group.
  await page.getByRole('button', { name: 'Edit Canada shipping' }).click();
  await page.getByRole('heading', { name: 'Global Rules: Canada shipping' }).waitFor();
  await page.getByText('No rules found').waitFor();
  await page.getByRole('button', { name: 'Add Rule' }).click();
  await page.getByLabel('Rule name').fill('Big carts to Canada');
  const conditions = page.getByRole('region', { name: 'Conditions' });
  await conditions.getByRole('button', { name: 'Add condition' }).click();
  await conditions.getByLabel('Country').fill('Cana');
  await page.getByRole('option', { name: 'Canada (CA)' }).click();
  await step(
    page,
    'Add Rule, name it and add a condition: Shipping Country equal Canada.',
    conditions,
  );

  await conditions.getByRole('button', { name: 'Add group' }).click();
  const group = page.getByRole('region', { name: 'Group (level 2)' });
  await group.getByRole('button', { name: 'OR' }).click();
  await group.getByLabel('Field').selectOption('cart_price');
  await group.getByLabel('Operator').selectOption('greater_or_equal');
  await group.getByLabel('Amount', { exact: true }).fill('100');
  await group.getByRole('button', { name: 'Add condition' }).click();
  await group.getByLabel('Field').nth(1).selectOption('cart_retail_product_count');
  await group.getByLabel('Operator').nth(1).selectOption('greater_or_equal');
  await group.getByLabel('Count').fill('5');
  await step(
    page,
    'Add group nests conditions. With OR, a cart of $100 or more, or of 5 products or more, matches.',
    group,
  );

  await page.getByLabel('Action').selectOption('5');
  await page.getByLabel('Amount', { exact: true }).last().fill('9.95');
  const saveAll = page.getByRole('button', { name: 'Save All' });
  await saveAll.click();
  await page.getByText('Rules saved.').waitFor();
  await step(
    page,
    'Choose what the rule does (Set Shipping Fee, $9.95) and select Save All.',
    page.getByLabel('Action'),
  );

  // 3. Enabled: checkout uses it.
  await page.getByRole('link', { name: 'Global Rules' }).click();
  await row(page, 'Canada shipping').getByText('Contains 1 rule').waitFor();
  await page.getByRole('button', { name: 'Disabled: enable Canada shipping' }).click();
  await toast(page, 'Ruleset enabled.');
  await page.getByRole('button', { name: 'Canada shipping is enabled' }).waitFor();
  await step(page, 'Back in Global Rules, enable the ruleset: checkout now uses its rules.');

  // 4. A cart previewed.
  await page.getByRole('button', { name: 'Edit Canada shipping' }).click();
  await page.getByRole('heading', { name: 'Rule #1: Big carts to Canada' }).waitFor();
  const preview = page.getByRole('region', { name: 'Rate preview' });
  await preview.getByLabel('Destination country').fill('Canada');
  await page.getByRole('option', { name: 'Canada (CA)' }).click();
  await preview.getByLabel('Price').fill('60');
  await preview.getByLabel('Quantity').fill('2');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  const result = page.getByRole('region', { name: 'Preview result' });
  await result.getByText('Shipping: $9.95').waitFor();
  await result.getByText('Global: Big carts to Canada').waitFor();
  await step(
    page,
    'Preview rates prices a test cart: two $60 products to Canada ship for $9.95, step by step.',
    result,
  );
  expect(problems).toEqual([]);
  await page.context().close();
}

test('the committed video shows these steps (re-record it when they change)', () => {
  const vtt = join(PUBLIC_DIR, `${NAME}.vtt`);
  expect(existsSync(join(PUBLIC_DIR, `${NAME}.webm`))).toBe(true);
  const committed = vttCueTexts(readFileSync(vtt, 'utf8'));
  const now = frames.map((f) => f.caption);
  if (JSON.stringify(committed) !== JSON.stringify(now)) {
    throw new Error(
      `frontend/public/training/${NAME}.vtt does not match the walkthrough's steps: run \`${RECORD_COMMAND}\` and commit the new video.\n` +
        `committed: ${JSON.stringify(committed, null, 1)}\nnow: ${JSON.stringify(now, null, 1)}`,
    );
  }
});

describe.each([
  { where: 'the install page', path: '/install', embedded: false, heading: 'Welcome to Ratesmith' },
  { where: 'the Dashboard', path: '/', embedded: true, heading: 'Welcome to Ratesmith' },
])('on $where', ({ where, path, embedded, heading }) => {
  it('plays the walkthrough with its English captions, and stays accessible', async () => {
    const { page, problems } = await openPage(suite.browser, suite.app, path, { embedded });
    await page.getByRole('heading', { name: heading }).waitFor();
    const video = page.getByLabel('Training video');
    await video.waitFor();
    expect(await video.evaluate((v) => v.tagName)).toBe('VIDEO');
    await page.waitForFunction(
      () => (document.querySelector('video')?.readyState ?? 0) >= HTMLMediaElement.HAVE_METADATA,
    );
    // Offered, not shown (the captions are in the picture too): loaded once asked for.
    expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.mode)).toBe('disabled');
    await video.evaluate((v: HTMLVideoElement) => (v.textTracks[0]!.mode = 'hidden'));
    await page.waitForFunction(
      () => document.querySelector('track')?.readyState === HTMLTrackElement.LOADED,
    );
    const played = await video.evaluate((v: HTMLVideoElement) => ({
      src: new URL(v.currentSrc).pathname,
      duration: v.duration,
      width: v.videoWidth,
      height: v.videoHeight,
      track: {
        kind: v.textTracks[0]?.kind,
        language: v.textTracks[0]?.language,
        cues: v.textTracks[0]?.cues?.length,
      },
    }));
    expect(played).toMatchObject({
      src: `/training/${NAME}.webm`,
      width: VIDEO_WIDTH,
      height: VIDEO_HEIGHT,
      track: { kind: 'captions', language: 'en', cues: frames.length },
    });
    expect(played.duration).toBeGreaterThan(10);
    expect(Number.isFinite(played.duration)).toBe(true);
    if (path === '/') {
      // A frame in the middle, its caption shown: seeking works (range requests).
      await video.evaluate(
        (v: HTMLVideoElement) =>
          new Promise((resolve) => {
            v.addEventListener('seeked', resolve, { once: true });
            v.currentTime = 8;
          }),
      );
      await screenshot(page, 'dashboard-training-video');
    }
    await expectNoAxeViolations(page, `${where} with the training video`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
