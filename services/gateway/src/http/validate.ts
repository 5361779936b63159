import { AppError } from '@ratesmith/kit';
import type { z } from 'zod';

/**
 * A refusal whose problems belong to fields of the request body: the 400
 * answers them as `fields` too (ErrorReply), so a form can say each at its field.
 */
export class FieldsError extends AppError {
  constructor(
    message: string,
    details: string[],
    /** The first problem of each field, by its path (`a.b`). */
    readonly fields: Record<string, string>,
  ) {
    super('invalid_data', message, details);
  }
}

/**
 * Parses request input with a zod schema. Unknown fields are dropped by the
 * schemas (z.object strips them), so they are never passed on or stored.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  const details = result.error.issues.map((issue) => {
    const path = issue.path.join('.');
    if (path) fields[path] ??= issue.message;
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new FieldsError('The request is not valid.', details.slice(0, 20), fields);
}

/**
 * Compiles only when every `T` passes the schema's input type: the request
 * shapes the admin sends (`@ratesmith/contracts/edge`) against the gateway's
 * schemas, so the two cannot drift apart unnoticed.
 */
export type SchemaAccepts<S extends z.ZodType, T extends z.input<S>> = T;
