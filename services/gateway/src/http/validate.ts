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
 * Compiles only when every `T` passes the schema's input type: the request
 * shapes the admin sends (`@ratesmith/contracts/edge`) against the gateway's
 * schemas, so the two cannot drift apart unnoticed.
 */
export type SchemaAccepts<S extends z.ZodType, T extends z.input<S>> = T;

/**
 * JSON nested deeper than this is refused before JSON.parse or any recursive
 * code sees it, so a hostile body cannot exhaust the stack or the CPU.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether raw JSON bytes nest arrays and objects deeper than `limit`: one
 * pass over the bytes, brackets inside strings ignored. Malformed JSON is
 * left to the parser.
 */
export function jsonNestingExceeds(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (OPEN.has(b)) {
      if (++depth > limit) return true;
    } else if (CLOSE.has(b)) depth--;
  }
  return false;
}
