import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema } from 'graphql';
import {
  extractSdl,
  findAppDocuments,
  PUBLISHED_SDL,
  PUBLISHED_VERSION,
  REPO_ROOT,
} from './published-schema';
import { ADMIN_SCHEMA } from './schema';

/**
 * Remakes ../published-schema/admin-<version>.graphql from Shopify's
 * introspection file (`.json` or `.json.gz`, named by the one argument),
 * keeping what the app's documents and the double's schema use as they are
 * now (../published-schema/README.md says where the file comes from):
 *
 *   node tools/shopify-double/dist/remake-published-schema.js <file>
 */
function remake(source: string): void {
  const bytes = readFileSync(source);
  const json = JSON.parse(
    (source.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'),
  ) as { data?: unknown };
  const full = buildClientSchema((json.data ?? json) as never);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const sdl = extractSdl(
    full,
    { documents: findAppDocuments().map((d) => d.text), double: ADMIN_SCHEMA },
    [
      `Shopify Admin GraphQL API ${PUBLISHED_VERSION}: an extract of Shopify's published schema,`,
      'without descriptions (where it comes from and how it is remade: README.md here).',
      `Made from a file of sha256 ${sha256}`,
      'by tools/shopify-double/src/remake-published-schema.ts; do not edit by hand.',
    ],
  );
  writeFileSync(PUBLISHED_SDL, sdl);
  console.log(`wrote ${relative(REPO_ROOT, PUBLISHED_SDL)} (${sdl.length} characters)`);
}

const [source] = process.argv.slice(2);
if (!source) {
  console.error(
    'usage: node tools/shopify-double/dist/remake-published-schema.js <introspection .json or .json.gz>',
  );
  process.exit(2);
}
remake(source);
