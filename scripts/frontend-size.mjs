// `npm run size`: what the admin's first page costs over the wire. The first
// page is `/` (the dashboard): index.html's entry with its static imports,
// plus the dashboard's lazy chunk and its imports, gzipped like the server's
// transfer would be. Reads frontend/dist (run `npm run build` first).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'frontend', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error('frontend/dist is not built: run `npm run build` first.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

/** The chunk's file, its CSS, and the same for every static import, once each. */
function collect(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) collect(imported, files);
  return files;
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const files = collect(entry);
collect('src/pages/Dashboard.tsx', files);

const rows = [...files].map((file) => {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const total = (ext) => rows.filter((r) => r.file.endsWith(ext)).reduce((sum, r) => sum + r.gzip, 0);

console.log('First page (/) of the admin, gzipped:');
for (const r of rows)
  console.log(`  ${r.file.padEnd(44)} ${kb(r.gzip).padStart(10)}  (${kb(r.raw)} raw)`);
console.log(`  JS total  ${kb(total('.js')).padStart(10)}`);
console.log(`  CSS total ${kb(total('.css')).padStart(10)}`);
