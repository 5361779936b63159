import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * No import cycles in the product's code (docs/architecture.md, "Counts"): a
 * cycle makes two modules one in all but name, and the last two were both
 * about the cart line. Relative imports of every source file (tests,
 * generated code and specs left out) form a graph; its strongly connected
 * components of more than one file are cycles.
 */

const ROOT = resolve(__dirname, '../../..');
const SOURCE_DIRS = [
  'proto/src',
  'frontend/src',
  ...['services', 'tools'].flatMap((parent) =>
    readdirSync(join(ROOT, parent)).map((name) => `${parent}/${name}/src`),
  ),
];

const IS_SOURCE = /\.(ts|tsx)$/;
const IS_LEFT_OUT = /\.spec\.tsx?$|\.d\.ts$|\/gen\//;
/** `from './x'`, `import './x'`, `import('./x')`, `export … from './x'`: relative ones only. */
const IMPORT = /(?:from\s+|import\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return IS_SOURCE.test(path) && !IS_LEFT_OUT.test(path) ? [path] : [];
  });
}

/** The file an import names, tried as TypeScript resolves it. */
function resolveImport(from: string, spec: string, files: Set<string>): string | undefined {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find(
    (candidate) => files.has(candidate),
  );
}

/** Strongly connected components (Tarjan), those of two or more files. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(IMPORT)]
        .map((match) => resolveImport(file, match[1]!, known))
        .filter((target): target is string => target !== undefined);
      return [file, [...new Set(targets)]];
    }),
  );
}

describe('import cycles', () => {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir)));

  it('reads the whole product', () => {
    // A check that read nothing would pass for nothing.
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain(join(ROOT, 'services/rate-engine/src/outcomes/recorder.ts'));
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('there are none', () => {
    const found = cycles(importGraph(files)).map((cycle) =>
      cycle.map((file) => relative(ROOT, file)),
    );
    expect(found).toEqual([]);
  });
});
