// protoc-gen-es opens every file it writes with `/* eslint-disable */`. The generated code
// passes the project's lint rules, so the comment only hides what a future generator might
// get wrong: `npm run gen` and the test that compares the committed files
// (proto/test/generated.int.spec.ts) take it out, and the files are linted like ours.
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.argv[2];
if (!dir) throw new Error('usage: node strip-lint-preamble.js <folder of generated files>');
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, 'utf8');
  const stripped = text.replace(/^\/\* eslint-disable \*\/\n/m, '');
  if (stripped !== text) writeFileSync(file, stripped);
}
