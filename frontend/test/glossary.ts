import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The words docs/glossary.md rules out, read from its tables, for the tests that hold the admin to them. */
export interface Glossary {
  /** Each word not to use, with the term to use instead. */
  forbidden: { word: string; instead: string; pattern: RegExp }[];
  /** Names allowed as written, though they hold a word not to use ("Global Rules"). */
  names: string[];
}

export const GLOSSARY_PATH = join(__dirname, '..', '..', 'docs', 'glossary.md');

/** The lines of the section under `## heading`. */
function section(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start < 0) throw new Error(`docs/glossary.md has no "## ${heading}" section`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole-word, any-case pattern: letters, digits, `_` and `-` around it belong to another word. */
function wordPattern(word: string): RegExp {
  const body = word.split(/\s+/).map(escape).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_-])${body}(?![\\p{L}\\p{N}_-])`, 'iu');
}

export function parseGlossary(markdown: string): Glossary {
  const forbidden: Glossary['forbidden'] = [];
  for (const line of section(markdown, 'Terms')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | word | meaning | not to use |: a leading and a trailing empty cell.
    if (cells.length !== 5 || !cells[1]!.startsWith('**')) continue;
    const instead = [...cells[1]!.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]).join(', ');
    for (const word of codeSpans(cells[3]!))
      forbidden.push({ word, instead, pattern: wordPattern(word) });
  }
  // The bold names of the section's first paragraph.
  const [first = ''] = section(markdown, 'Names kept as they are')
    .join('\n')
    .trim()
    .split(/\n\s*\n/);
  const names = [...first.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
  if (forbidden.length === 0) throw new Error('docs/glossary.md lists no word not to use');
  return { forbidden, names };
}

export function readGlossary(path = GLOSSARY_PATH): Glossary {
  return parseGlossary(readFileSync(path, 'utf8'));
}

/** The words of the glossary's last column that `text` holds, each with the term to use instead. */
export function wordsNotToUse(text: string, glossary: Glossary): string[] {
  let rest = text;
  for (const name of glossary.names) rest = rest.split(name).join(' ');
  return glossary.forbidden
    .filter(({ pattern }) => pattern.test(rest))
    .map(({ word, instead }) => `"${word}" (say ${instead})`);
}
