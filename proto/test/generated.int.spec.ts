import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * Contracts have one source: the .proto files. CI fails when they break buf's
 * lint rules or when the committed TypeScript is not what they generate.
 */
const protoDir = join(__dirname, '..');
const bin = join(protoDir, '..', 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
const buf = (...args: string[]) =>
  execFileSync(join(bin, 'buf'), args, { cwd: protoDir, env, encoding: 'utf8' });

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

it('passes buf lint and buf format', () => {
  expect(buf('lint')).toBe('');
  expect(buf('format', '--diff', '--exit-code')).toBe('');
});

it('matches the committed generated TypeScript', () => {
  const out = mkdtempSync(join(tmpdir(), 'ratesmith-proto-'));
  buf('generate', '--output', out);
  const fresh = join(out, 'src', 'gen');
  // As `npm run gen` leaves them (proto/scripts/strip-lint-preamble.js).
  execFileSync(process.execPath, [join(protoDir, 'scripts', 'strip-lint-preamble.js'), fresh]);
  const committed = join(protoDir, 'src', 'gen');
  expect(files(fresh)).toEqual(files(committed));
  for (const file of files(committed)) {
    expect([file, readFileSync(join(fresh, file), 'utf8')]).toEqual([
      file,
      readFileSync(join(committed, file), 'utf8'),
    ]);
  }
});
