import { snapshotSchema, type Snapshot } from '@ratesmith/contracts';
import { compileSnapshot, SnapshotCompileError } from './compile';
import { quote, type Quote } from './evaluate';
import { parseInstant, parseRateRequest, RateRequestError } from './request';

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

/** The input's `now` (docs/rates.md, section 6): an ISO 8601 instant; missing is the current time. */
function nowOf(now: unknown): number | undefined {
  if (now === undefined) return undefined;
  const at = parseInstant(now);
  if (at === undefined)
    throw new QuoteInputError(
      'now must be an ISO 8601 instant with Z or an offset, such as 2026-11-27T15:30:00-05:00',
    );
  return at;
}

/**
 * One `{ snapshot, request, now? }` input of the quote command (services/rate-engine/README.md):
 * the rate response plus the trace. Throws QuoteInputError for bad input.
 */
export function quoteInput(input: unknown): Required<Quote> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new QuoteInputError('Each input must be an object { "snapshot": ..., "request": ... }');
  }
  const { snapshot, request, now } = input as {
    snapshot?: unknown;
    request?: unknown;
    now?: unknown;
  };
  const receivedAt = nowOf(now);
  try {
    const compiled = compileSnapshot(parseSnapshot(snapshot));
    return quote(
      compiled,
      parseRateRequest(request, undefined, receivedAt),
      true,
    ) as Required<Quote>;
  } catch (err) {
    if (err instanceof RateRequestError) throw new QuoteInputError(`request: ${err.message}`);
    if (err instanceof SnapshotCompileError) throw new QuoteInputError(`snapshot: ${err.message}`);
    throw err;
  }
}
