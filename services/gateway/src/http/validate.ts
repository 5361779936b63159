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
