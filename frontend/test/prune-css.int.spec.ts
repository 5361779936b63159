import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The build's pruning of Polaris' stylesheet (frontend/scripts/prune-polaris-css.mjs):
 * its rule on small sheets, and the built frontend/dist it left behind.
 */
const script = join(__dirname, '..', 'scripts', 'prune-polaris-css.mjs');
const dist = join(__dirname, '..', 'dist');

/** The script's prunePolarisCss, run by Node itself (the script is an ES module). */
function prune(css: string, used: string[]): { css: string; dropped: number } {
  const code = `import { readFileSync } from 'node:fs';
import { prunePolarisCss } from ${JSON.stringify(script)};
const [css, used] = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(prunePolarisCss(css, new Set(used))));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      input: JSON.stringify([css, used]),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  ) as { css: string; dropped: number };
}

const squash = (css: string) => css.replace(/\s+/g, ' ').trim();

describe("pruning Polaris' stylesheet", () => {
  it('drops the selectors that need a class no JS sets, and nothing else', () => {
    const { css, dropped } = prune(
      `:root{--p-space-100:4px}
.rs-topbar{padding:0}
.Polaris-Button{color:red}
.Polaris-Frame{display:flex}
.Polaris-Button:hover .Polaris-Frame__Main,.Polaris-Button:focus{outline:0}
@media (min-width:30em){.Polaris-Frame__Nav{width:1px}}
@media (min-width:40em){.Polaris-Button{width:2px}}
@keyframes p-spin{from{opacity:0}to{opacity:1}}
.Polaris-Button:not(.Polaris-Frame){margin:0}`,
      ['Polaris-Button'],
    );
    expect(squash(css)).toBe(
      squash(`:root{--p-space-100:4px}
.rs-topbar{padding:0}
.Polaris-Button{color:red}
.Polaris-Button:focus{outline:0}
@media (min-width:40em){.Polaris-Button{width:2px}}
@keyframes p-spin{from{opacity:0}to{opacity:1}}
.Polaris-Button:not(.Polaris-Frame){margin:0}`),
    );
    // .Polaris-Frame, the hover selector and the rule in the emptied @media; a class
    // under :not() is not needed for a match, so that selector stays.
    expect(dropped).toBe(3);
  });

  it('left the built entry stylesheet pruned, and named alike by index.html and every chunk', () => {
    // The build prunes before Vite names the file, so the screens' chunks preload it by
    // the name it is served under.
    const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as {
      'index.html': { css: string[] };
    };
    const [file] = manifest['index.html'].css;
    expect(file).toMatch(/^assets\/index-[\w-]{8}\.css$/);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toContain(`href="/${file!}"`);
    const css = readFileSync(join(dist, file!), 'utf8');
    // Still Polaris' sheet: its tokens and the components the admin renders.
    expect(css).toContain('--p-color-bg');
    expect(css).toContain('.Polaris-Button');
    expect(css).toContain('.Polaris-IndexTable');
    // Pruned: well under Polaris' whole stylesheet (499 KB; 424 KB once minified, before).
    const whole = readFileSync(require.resolve('@shopify/polaris/build/esm/styles.css'), 'utf8');
    expect(css.length).toBeLessThan(whole.length * 0.6);
    // Every Polaris class it needs is one the JS can set: the few selectors pruning would
    // still take are ones the minifier wrote out from a :not() or :is() the build kept.
    const assets = join(dist, 'assets');
    const js = readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(assets, f), 'utf8'))
      .join('\n');
    const used = [...new Set(js.match(/Polaris-[A-Za-z0-9_-]+/g) ?? [])];
    expect(prune(css, used).dropped).toBeLessThanOrEqual(5);
    for (const chunk of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
      const named =
        readFileSync(join(assets, chunk), 'utf8').match(/assets\/index-[\w-]+\.css/g) ?? [];
      for (const name of named) expect(name).toBe(file);
    }
    expect(existsSync(join(dist, `${file!}.br`))).toBe(true);
  });
});
