// `npm run size`: what the admin's first page costs over the wire. A page is
// index.html's entry with its static imports, plus the screen's lazy chunk and
// its imports (Vite's manifest, frontend/dist/.vite/manifest.json), raw and
// compressed as the build precompresses them (frontend/scripts/precompress.mjs)
// and the gateway serves them. The admin opens on `/` (the dashboard); the
// rulesets page is the other screen merchants land on. Reads frontend/dist (run
// `npm run build` first); `--json` prints the figures for a program (the budget
// test, frontend/test/size-budget.int.spec.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compressions } from '../frontend/scripts/precompress.mjs';

export const DIST = join(import.meta.dirname, '..', 'frontend', 'dist');

/** The first pages a merchant opens, each with the source of its lazy route chunk (frontend/src/routes.tsx). */
export const FIRST_PAGES = {
  '/': 'src/pages/Dashboard.tsx',
  '/global-rules': 'src/pages/GlobalRules.tsx',
};

export function readManifest(dist = DIST) {
  const path = join(dist, '.vite', 'manifest.json');
  if (!existsSync(path)) throw new Error('frontend/dist is not built: run `npm run build` first.');
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The chunk's file, its CSS, and the same for every static import, once each. */
function collect(manifest, key, files) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in frontend/dist's manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, files);
  return files;
}

/**
 * The files a first load of the page fetches: the entries' (index.html's and
 * src/route-preload.ts, which index.html names too) and the route chunk's.
 */
export function pageFiles(manifest, routeSource) {
  const files = new Set();
  for (const key of Object.keys(manifest)) if (manifest[key].isEntry) collect(manifest, key, files);
  return [...collect(manifest, routeSource, files)];
}

/**
 * Each file of the page with its raw, gzip and brotli bytes, and the JS and
 * CSS totals: `{ files: [{file, raw, gzip, br}], js: {raw, gzip, br}, css: {...} }`.
 */
export function pageSize(routeSource, dist = DIST, manifest = readManifest(dist)) {
  const files = pageFiles(manifest, routeSource).map((file) => {
    const bytes = readFileSync(join(dist, file));
    const { gzip, br } = compressions(bytes);
    return { file, raw: bytes.length, gzip: gzip.length, br: br.length };
  });
  const total = (ext) =>
    files
      .filter((f) => f.file.endsWith(ext))
      .reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip, br: t.br + f.br }), {
        raw: 0,
        gzip: 0,
        br: 0,
      });
  return { files, js: total('.js'), css: total('.css') };
}

/** pageSize of each of FIRST_PAGES, by path. */
export function firstPagesSize(dist = DIST) {
  const manifest = readManifest(dist);
  return Object.fromEntries(
    Object.entries(FIRST_PAGES).map(([path, source]) => [path, pageSize(source, dist, manifest)]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let pages;
  try {
    pages = firstPagesSize();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(pages));
  } else {
    const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
    const row = (name, s) =>
      `  ${name.padEnd(44)} ${kb(s.gzip).padStart(9)} gzip ${kb(s.br).padStart(9)} br  (${kb(s.raw)} raw)`;
    for (const [path, page] of Object.entries(pages)) {
      console.log(`First load of ${path} (the admin), compressed as the gateway serves it:`);
      for (const f of page.files) console.log(row(f.file, f));
      console.log(row('JS total', page.js));
      console.log(row('CSS total', page.css));
    }
  }
}
