import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The size budget: what the first load of the admin's first pages
 * costs over the wire (gzip), computed by `npm run size` itself
 * (scripts/frontend-size.mjs --json) on the built frontend/dist. Each budget
 * is a little above the build's figure when it was set (docs/performance.md,
 * "First load of the admin"): a change that pushes a page past it must either
 * split the new code out of the first load or raise the budget there, saying
 * why.
 */

const KB = 1024;
/** gzip bytes of the page's JS and CSS, index.html's entry plus the route's lazy chunk. */
const BUDGET: Record<string, { js: number; css: number }> = {
  // Measured 125.1 kB JS, 49.8 kB CSS (the whole Polaris stylesheet); 129.7 kB JS before the
  // analytics card, 131.7 kB with it: its code and the charts (polaris-viz, 119 kB) are lazy
  // chunks, but React and Polaris then split into more shared chunks that compress less well.
  // CSS 30.5 kB since the build drops the rules of Polaris components the admin never
  // renders (frontend/scripts/build.mjs). 132.2 kB JS with the web vitals' sampling and
  // sender (frontend/src/vitals): the library and the measuring code (3.5 kB) are
  // a chunk only a sampled page view loads. CSS 31.1 kB since the editor's list chips
  // (Polaris' Tag, docs/rates.md "Lists") keep the Tag rules in the one stylesheet.
  // 133.2 kB JS with NoticesFirst (0.5 kB), which keeps the Dashboard's cards in place
  // while its notices load (docs/performance.md, the Dashboard's layout shift). 133.7 kB
  // with the skip link and the focus after a navigation; 134.2 kB once the shared loaders,
  // version texts and confirm dialog (one home each, docs/architecture.md) joined the chunks
  // the Dashboard loads.
  '/': { js: 135 * KB, css: 31.5 * KB },
  // Measured 144.0 kB JS (IndexTable, Modal), 30.5 kB CSS; 147.7 and 31.1 with the chips;
  // 148.4 kB JS with the list's focus moves and its Rename dialog loaded on first use.
  '/global-rules': { js: 150 * KB, css: 31.5 * KB },
};

type Totals = { raw: number; gzip: number; br: number };
type Page = { files: ({ file: string } & Totals)[]; js: Totals; css: Totals };

const script = join(__dirname, '..', '..', 'scripts', 'frontend-size.mjs');
const pages = JSON.parse(
  execFileSync(process.execPath, [script, '--json'], { encoding: 'utf8' }),
) as Record<string, Page>;

describe("the first load's size budget (gzip)", () => {
  it('covers the pages npm run size measures', () => {
    expect(Object.keys(pages).sort()).toEqual(Object.keys(BUDGET).sort());
  });

  it.each(Object.keys(BUDGET))('%s stays within its JS and CSS budget', (path) => {
    const page = pages[path]!;
    const list = page.files.map((f) => `${f.file} ${(f.gzip / KB).toFixed(1)} kB`).join('\n');
    if (page.js.gzip > BUDGET[path]!.js || page.css.gzip > BUDGET[path]!.css)
      throw new Error(
        `${path}: JS ${(page.js.gzip / KB).toFixed(1)} kB (budget ${BUDGET[path]!.js / KB} kB), ` +
          `CSS ${(page.css.gzip / KB).toFixed(1)} kB (budget ${BUDGET[path]!.css / KB} kB) gzip:\n${list}`,
      );
    expect(page.js.gzip).toBeLessThanOrEqual(BUDGET[path]!.js);
    expect(page.css.gzip).toBeLessThanOrEqual(BUDGET[path]!.css);
    // Compression is what the gateway sends: gzip well under the raw bytes, brotli under gzip.
    expect(page.js.gzip).toBeLessThan(page.js.raw / 3);
    expect(page.js.br).toBeLessThan(page.js.gzip);
    expect(page.css.br).toBeLessThan(page.css.gzip);
  });
});
