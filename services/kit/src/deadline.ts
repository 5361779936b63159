import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from './errors';

/**
 * The deadline of the request being handled: the moment (epoch ms) its caller
 * stops waiting, taken from the request's header by serveRpc
 * (services/kit/src/rpc.ts) and in scope for all of the handler's async work,
 * so the database calls (services/kit/src/mongo.ts) and the bus calls it makes
 * can honour it without every function passing it on.
 *
 * An AsyncLocalStorage of its own, not OpenTelemetry's context: that one
 * follows async work only when the telemetry SDK registered its context
 * manager (services/kit/src/telemetry.ts), which OTEL_SDK_DISABLED and most
 * tests do without. The two stores nest independently.
 */
interface DeadlineScope {
  /** Undefined: no deadline, or lifted because a write was sent (see startWrite). */
  deadline: number | undefined;
}

const scope = new AsyncLocalStorage<DeadlineScope>();

export const CALLER_GONE_MESSAGE =
  'This took too long and its caller stopped waiting. Please try again.';

/** The furthest a caller's deadline is taken to be: a bad clock or value cannot pin work for hours. */
export const MAX_DEADLINE_AHEAD_MS = 5 * 60_000;

/**
 * Runs `fn` (and everything it starts) with `deadline`. `undefined` runs it
 * without one: work that follows an answer, such as a version written after
 * a save, is not the caller's and must not stop when the caller does.
 */
export function withDeadline<T>(deadline: number | undefined, fn: () => T): T {
  return scope.run({ deadline }, fn);
}

/** Milliseconds left until the deadline in scope (negative once past); Infinity without one. */
export function remainingMs(): number {
  const deadline = scope.getStore()?.deadline;
  return deadline === undefined ? Infinity : deadline - Date.now();
}

/** Throws `unavailable` once the caller stopped waiting: nobody would see the result. */
export function checkTimeLeft(): void {
  if (remainingMs() <= 0) throw new AppError('unavailable', CALLER_GONE_MESSAGE);
}

/**
 * Called before a write is sent. Past the deadline the write is refused. Once
 * one is sent the deadline is lifted for the rest of the request: a write that
 * outlives its caller either completes and is reported as such, or does not
 * happen; the reads and writes after it (the rest of a save, its snapshot,
 * the checks that keep it whole) are not cut halfway.
 */
export function startWrite(): void {
  checkTimeLeft();
  const current = scope.getStore();
  if (current) current.deadline = undefined;
}

/**
 * A deadline as a header carries it (epoch ms in decimal digits). Missing or
 * malformed: no deadline, as from a caller that does not send one; more than
 * MAX_DEADLINE_AHEAD_MS ahead: that far.
 */
export function deadlineFromHeader(
  value: string | undefined,
  now = Date.now(),
): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined;
  return Math.min(Number(value), now + MAX_DEADLINE_AHEAD_MS);
}
