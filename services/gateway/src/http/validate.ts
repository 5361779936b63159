import { AppError } from '@ratesmith/kit';
import type { z } from 'zod';

/**
 * Parses request input with a zod schema. Unknown fields are dropped by the
 * schemas (z.object strips them), so they are never passed on or stored.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const path = issue.path.join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new AppError('invalid_data', 'The request is not valid.', details.slice(0, 20));
}

/**
 * JSON nested deeper than this is refused before any recursive code sees it,
 * so a hostile body cannot exhaust the stack.
 */
export const MAX_JSON_DEPTH = 32;

export function jsonDepthExceeds(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
