import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * A value kind is one record (value-kinds.ts) and a table of each other
 * role in its own module: adding a kind must be a type error in every one of
 * those modules until its role is given, so the type checker walks whoever
 * adds a kind through all of them. Proved here by type-checking the modules
 * with a throwaway kind added to the record (in memory; no file changes).
 */

const ROOT = resolve(__dirname, '../../..');
const KINDS_FILE = join(ROOT, 'proto/src/filters/value-kinds.ts');

/** Each role held outside the record, by the module that holds it. */
const ROLES = {
  'its JSON shape in the snapshot': 'proto/src/snapshot.ts',
  'its phrase in a rule sentence': 'proto/src/filters/sentence.ts',
  "the lint's reading of it": 'proto/src/filters/lint.ts',
  "the engine's operand": 'services/rate-engine/src/engine/compile.ts',
  "the editor's input": 'frontend/src/editor/ConditionEditor.tsx',
  "the editor's form while typing": 'frontend/src/editor/model.ts',
};

const THROWAWAY = `
  throwaway_text: {
    hint: () => 'needs a text',
    check: (raw) => (typeof raw === 'string' ? raw : 'invalid'),
  } satisfies KindDefinition<string>,
`;
/** A kind without its check: the record's own roles are checked by `satisfies`. */
const HALF_GIVEN = `
  throwaway_text: { hint: () => 'needs a text' } satisfies KindDefinition<string>,
`;

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  customConditions: ['ratesmith-source'],
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noUncheckedIndexedAccess: true,
  noFallthroughCasesInSwitch: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node', 'vite/client'],
  baseUrl: ROOT,
  // Every workspace package from its source, as the admin's build reads contracts.
  paths: {
    '@ratesmith/contracts': ['proto/src/index.ts'],
    '@ratesmith/contracts/*': ['proto/src/*'],
    '@ratesmith/contracts/filters': ['proto/src/filters/index.ts'],
  },
};

/** The record with `entry` added as its last kind. */
function withKind(entry: string): string {
  const source = readFileSync(KINDS_FILE, 'utf8');
  const end = source.indexOf('\n};', source.indexOf('export const VALUE_KINDS = {'));
  if (end < 0) throw new Error('VALUE_KINDS not found');
  return `${source.slice(0, end)}${entry}${source.slice(end)}`;
}

const cache = new Map<string, ts.SourceFile>();

/**
 * The files of `ROLES` with errors, type-checked with value-kinds.ts's text replaced;
 * `onlyKinds`: value-kinds.ts alone is checked (the role modules pull in React's and
 * Polaris's types, most of the checker's time).
 */
function errorsBy(kindsSource: string | undefined, oldProgram?: ts.Program, onlyKinds = false) {
  const host = ts.createCompilerHost(OPTIONS);
  const plain = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language) => {
    if (kindsSource !== undefined && resolve(fileName) === KINDS_FILE)
      return ts.createSourceFile(fileName, kindsSource, language);
    let file = cache.get(fileName);
    if (!file) {
      file = plain(fileName, language);
      if (file) cache.set(fileName, file);
    }
    return file;
  };
  const files = [...Object.values(ROLES), 'proto/src/filters/value-kinds.ts'].map((f) =>
    join(ROOT, f),
  );
  const program = ts.createProgram({ rootNames: files, options: OPTIONS, host, oldProgram });
  const withErrors = new Map<string, string[]>();
  for (const file of onlyKinds ? [KINDS_FILE] : files) {
    const messages = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    if (messages.length) withErrors.set(file.slice(ROOT.length + 1), messages);
  }
  return { program, withErrors };
}

describe('adding a value kind', () => {
  let baseline: ReturnType<typeof errorsBy>;
  beforeAll(() => {
    baseline = errorsBy(undefined);
  }, 120_000);

  it('type-checks cleanly as the record stands', () => {
    expect(Object.fromEntries(baseline.withErrors)).toEqual({});
  });

  it('is a type error in every module that holds a role of a kind, until it is given', () => {
    const { withErrors } = errorsBy(withKind(THROWAWAY), baseline.program);
    const missing = Object.entries(ROLES)
      .filter(([, file]) => !withErrors.has(file))
      .map(([role]) => role);
    expect(missing).toEqual([]);
    // The record itself took the kind: the errors are the other modules'.
    expect(withErrors.has('proto/src/filters/value-kinds.ts')).toBe(false);
  }, 120_000);

  it("is a type error in the record when one of the record's own roles is missing", () => {
    const { withErrors } = errorsBy(withKind(HALF_GIVEN), baseline.program, true);
    expect(withErrors.get('proto/src/filters/value-kinds.ts')?.join('\n')).toMatch(/check/);
  }, 120_000);
});
