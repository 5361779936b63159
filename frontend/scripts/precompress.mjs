// The frontend build's last step (frontend/package.json `build`): every text
// file Vite wrote to frontend/dist gets a `.br` and a `.gz` beside it,
// compressed once at the highest levels, so the gateway
// (services/gateway/src/http/static-files.ts) serves them without compressing
// per request. index.html is left alone: the gateway templates it at startup
// and compresses the result itself. `npm run size` uses the same settings.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text worth compressing; media (webm, png, woff2) is compressed already. */
export const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|vtt|xml|map|html)$/i;

/** gzip at level 9, brotli at quality 11 (text mode): what the build writes and the gateway serves. */
export function compressions(bytes) {
  return {
    gzip: gzipSync(bytes, { level: 9 }),
    br: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  };
}

/** The files under dir, as paths relative to it ('/'-separated). */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * Writes `<file>.br` and `<file>.gz` for each compressible file of dist (not
 * index.html, not Vite's .vite/ manifest), each only when it is smaller than
 * the file. Returns what it wrote, for the log line.
 */
export function precompress(dist) {
  const written = [];
  for (const file of filesUnder(dist)) {
    if (!COMPRESSIBLE.test(file) || file === 'index.html' || file.startsWith('.vite/')) continue;
    const bytes = readFileSync(join(dist, file));
    const encoded = compressions(bytes);
    for (const [suffix, body] of [
      ['.br', encoded.br],
      ['.gz', encoded.gzip],
    ]) {
      if (body.length >= bytes.length) continue;
      writeFileSync(join(dist, file + suffix), body);
      written.push({ file: file + suffix, raw: bytes.length, encoded: body.length });
    }
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = process.argv[2] ?? join(import.meta.dirname, '..', 'dist');
  const written = precompress(dist);
  const sum = (list) => list.reduce((n, w) => n + w.encoded, 0);
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
  const sources = new Set(written.map((w) => w.file.replace(/\.(br|gz)$/, '')));
  // A build step's one line, like Vite's own.
  process.stdout.write(
    `precompressed ${sources.size} files of ${dist}: ` +
      `br ${kb(sum(written.filter((w) => w.file.endsWith('.br'))))}, ` +
      `gzip ${kb(sum(written.filter((w) => w.file.endsWith('.gz'))))}\n`,
  );
}
