// `npm run build --workspace frontend`: Vite's production build, with Polaris'
// stylesheet reduced to the components the admin renders
// (prune-polaris-css.mjs). A first build in memory finds the Polaris classes
// the JS can set; the second, written to dist, prunes the CSS with them. Both
// builds read the same sources, so their JS is the same.
import { join } from 'node:path';
import { build } from 'vite';
import { classesIn, polarisPrune } from './prune-polaris-css.mjs';

const root = join(import.meta.dirname, '..');
const probe = await build({ root, logLevel: 'warn', build: { write: false, manifest: false } });
const chunks = (Array.isArray(probe) ? probe : [probe])
  .flatMap((result) => result.output)
  .filter((file) => file.type === 'chunk');
const used = classesIn(chunks.map((chunk) => chunk.code).join('\n'));
const stats = { dropped: 0 };
await build({ root, css: { postcss: { plugins: [polarisPrune(used, stats)] } } });
process.stdout.write(
  `pruned ${stats.dropped} selectors of Polaris components the admin does not render (${used.size} classes in use)\n`,
);
