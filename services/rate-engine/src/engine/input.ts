import { snapshotSchema, type Snapshot } from '@ratesmith/contracts';
import { compileSnapshot, SnapshotCompileError } from './compile';
import { quote, type Quote } from './evaluate';
import { parseRateRequest, RateRequestError } from './request';

/** Why an input could not be quoted; the message is one line meant for a person. */
export class QuoteInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuoteInputError';
  }
}

/** Parses a snapshot as the rules service publishes it (zod shape only; compile checks the rest). */
export function parseSnapshot(value: unknown): Snapshot {
  const result = snapshotSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.length ? `snapshot.${issue.path.join('.')}` : 'snapshot';
  throw new QuoteInputError(`${path}: ${issue.message}`);
}

/**
 * One `{ snapshot, request }` input of the quote command (services/rate-engine/README.md):
 * the rate response plus the trace. Throws QuoteInputError for bad input.
 */
export function quoteInput(input: unknown): Required<Quote> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new QuoteInputError('Each input must be an object { "snapshot": ..., "request": ... }');
  }
  const { snapshot, request } = input as { snapshot?: unknown; request?: unknown };
  try {
    const compiled = compileSnapshot(parseSnapshot(snapshot));
    return quote(compiled, parseRateRequest(request), true) as Required<Quote>;
  } catch (err) {
    if (err instanceof RateRequestError) throw new QuoteInputError(`request: ${err.message}`);
    if (err instanceof SnapshotCompileError) throw new QuoteInputError(`snapshot: ${err.message}`);
    throw err;
  }
}
