import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parseGlossary, readGlossary, wordsNotToUse } from '../test/glossary';

/**
 * The admin's texts use docs/glossary.md's words only: every JSX text and
 * string literal of the admin and of the contracts it shows (the FAQ, the
 * pages, the editor's catalogue and sentences, the checks' messages) is read
 * with the TypeScript compiler, and none may hold a word of the glossary's
 * "not to use" column. Strings a merchant never reads (imports, types, object
 * keys, values compared with, CSS classes, paths) are left out.
 */
const repo = join(__dirname, '..', '..');
const ROOTS = ['frontend/src', 'proto/src'];
const SKIPPED = /\.spec\.tsx?$|\/gen\/|testing\.tsx?$|\/test-[^/]*$|test-utils\.tsx$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !SKIPPED.test(path) ? [path] : [];
  });
}

/** JSX attributes whose value no merchant reads. */
const HIDDEN_ATTRIBUTES = new Set(['className', 'id', 'key', 'to', 'url', 'href', 'src', 'type']);

/** Where a string is code, not text: imports, types, keys, compared values, attributes above. */
function isCode(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
  if (ts.isLiteralTypeNode(parent) || ts.isElementAccessExpression(parent)) return true;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return true;
  if (ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if (
      op === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
      op === ts.SyntaxKind.InKeyword
    )
      return true;
  }
  if (ts.isJsxAttribute(parent)) {
    const name = parent.name.getText();
    return HIDDEN_ATTRIBUTES.has(name) || name.startsWith('data-');
  }
  if (ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent)) return isCode(parent);
  if (ts.isCallExpression(parent) && parent.expression.getText() === 'require') return true;
  return false;
}

/** The texts of one file a merchant may read, each with its line. */
function textsOf(path: string, source: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(
    path,
    source,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const texts: { line: number; text: string }[] = [];
  const add = (node: ts.Node, text: string) => {
    if (text.trim())
      texts.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) add(node, node.text.replace(/\s+/g, ' '));
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (!isCode(node) && !/^\/\S*$/.test(node.text)) add(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      // The fixed parts, each apart: what fills the gaps is checked where it comes from.
      if (!isCode(node)) {
        add(node, node.head.text);
        for (const span of node.templateSpans) add(span, span.literal.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return texts;
}

const glossary = readGlossary();

test('docs/glossary.md lists the words not to use, and the names kept', () => {
  const words = glossary.forbidden.map((f) => f.word);
  expect(words).toEqual(
    expect.arrayContaining(['filter', 'filters', 'global rule', 'inactive', 'deactivate']),
  );
  expect(glossary.names).toEqual(['Global Rules', 'Product Rules']);
});

test('a word not to use is found as a whole word in any case, a kept name is not', () => {
  const sample = parseGlossary(
    [
      '## Terms',
      '',
      '| word | meaning | not to use |',
      '|---|---|---|',
      '| **ruleset** | a list | `global rule`, `global rules` |',
      '| **rule** | an entry | `filter` |',
      '',
      '## Names kept as they are',
      '',
      'The pages **Global Rules** and **Product Rules**.',
    ].join('\n'),
  );
  expect(wordsNotToUse('Add a Filter', sample)).toEqual(['"filter" (say rule)']);
  expect(wordsNotToUse('Disable all global\nrules?', sample)).toEqual([
    '"global rules" (say ruleset)',
  ]);
  expect(wordsNotToUse('Global rules first', sample)).toEqual(['"global rules" (say ruleset)']);
  expect(wordsNotToUse('Go to Global Rules', sample)).toEqual([]);
  expect(wordsNotToUse('filtering filter_id /edit-global-rule rs--filter', sample)).toEqual([]);
});

test('the texts of a file are its JSX text and literals, without those that are code', () => {
  const texts = textsOf(
    'Sample.tsx',
    [
      "import { filter } from './filter';",
      "type State = 'inactive' | 'active';",
      "const LABELS = { inactive: 'Inactive' };",
      "const on = (s: State) => s === 'active' ? 'Deactivate' : `Activate ${name}`;",
      'const el = <p className="rs--active" title="Filters">No filters yet</p>;',
    ].join('\n'),
  );
  expect(texts).toEqual([
    { line: 3, text: 'Inactive' },
    { line: 4, text: 'Deactivate' },
    { line: 4, text: 'Activate ' },
    { line: 5, text: 'Filters' },
    { line: 5, text: 'No filters yet' },
  ]);
});

test('no text of the admin uses a word docs/glossary.md rules out', () => {
  const files = ROOTS.flatMap(sourceFiles);
  // The FAQ, the catalogue and sentences, and the pages are among them.
  expect(files).toEqual(
    expect.arrayContaining([
      'frontend/src/pages/Faq.tsx',
      'frontend/src/pages/ProductRules.tsx',
      'proto/src/filters/catalogue.ts',
      'proto/src/filters/sentence.ts',
    ]),
  );
  const found = files.flatMap((path) =>
    textsOf(path, readFileSync(join(repo, path), 'utf8')).flatMap(({ line, text }) =>
      wordsNotToUse(text, glossary).map(
        (word) => `${path}:${line}: ${word} in ${JSON.stringify(text)}`,
      ),
    ),
  );
  expect(found).toEqual([]);
});
