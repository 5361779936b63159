/**
 * Every failed /api call becomes an ApiError: a non-2xx answer, a body with
 * `status: false`, a timeout, or no answer at all. `serverMessage` is the
 * server's `message` when it sent one (shown as the server wrote it).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly details: {
      /** HTTP status; 0 when no answer arrived (network failure or timeout). */
      status: number;
      serverMessage?: string;
      /** The editor's validation errors (`errors` of a 400 from Save All). */
      errors?: string[];
      /** A 400's problems that belong to one field of the body, by its key (ErrorReply's `fields`). */
      fields?: Record<string, string>;
      timedOut?: boolean;
      body?: unknown;
    },
  ) {
    super(message);
  }

  get status(): number {
    return this.details.status;
  }

  get serverMessage(): string | undefined {
    return this.details.serverMessage;
  }

  get errors(): string[] {
    return this.details.errors ?? [];
  }

  get fields(): Record<string, string> {
    return this.details.fields ?? {};
  }
}

/**
 * The text to show for a failure: the server's message (with its `errors`
 * list, if any), else the screen's default.
 */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    // "Please fix the following errors:" comes with the list: show both.
    if (err.serverMessage && err.errors.length)
      return `${err.serverMessage} ${err.errors.join(' ')}`;
    if (err.serverMessage) return err.serverMessage;
    if (err.details.timedOut) return 'The server took too long to answer. Please try again.';
  }
  return fallback;
}

/** True for an ApiError caused by the caller aborting the request (e.g. on unmount). */
export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}
