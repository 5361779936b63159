import { commonV1 } from '@ratesmith/contracts';

/** The closed set of failure kinds (see proto ratesmith.common.v1.ErrorKind). */
export type ErrorKind =
  | 'invalid_data'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'unavailable'
  | 'internal';

/**
 * The one error type domain code throws. `message` is shown to the merchant;
 * `cause` is only logged.
 */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const GENERIC_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';

const httpStatusByKind: Record<ErrorKind, number> = {
  invalid_data: 400,
  not_found: 404,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  unavailable: 503,
  internal: 500,
};

export function httpStatusOf(kind: ErrorKind): number {
  return httpStatusByKind[kind];
}

const { ErrorKind: Proto } = commonV1;
const protoByKind: Record<ErrorKind, commonV1.ErrorKind> = {
  invalid_data: Proto.INVALID_DATA,
  not_found: Proto.NOT_FOUND,
  conflict: Proto.CONFLICT,
  unauthorized: Proto.UNAUTHORIZED,
  forbidden: Proto.FORBIDDEN,
  unavailable: Proto.UNAVAILABLE,
  internal: Proto.INTERNAL,
};

export function kindToProto(kind: ErrorKind): commonV1.ErrorKind {
  return protoByKind[kind];
}

export function kindFromProto(kind: commonV1.ErrorKind): ErrorKind {
  const found = (Object.keys(protoByKind) as ErrorKind[]).find((k) => protoByKind[k] === kind);
  return found ?? 'internal';
}

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database is not available right now. Please try again shortly.';

/**
 * The MongoDB driver's and mongoose's errors (by name, so this module needs
 * neither) that mean the database could not be reached or did not answer in
 * time: an outage to retry, not a bug.
 */
const DATABASE_UNAVAILABLE = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoWaitQueueTimeoutError',
  'MongoOperationTimeoutError',
  'MongoStalePrimaryError',
]);

/**
 * Server error codes of the same meaning: the driver's retryable-read codes (by their
 * names in its MONGODB_ERROR_CODES) and 50, a query past its maxTimeMS.
 */
const DATABASE_UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  89, // NetworkTimeout
  91, // ShutdownInProgress
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

function databaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 3) return false;
  if (DATABASE_UNAVAILABLE.has(err.name)) return true;
  if (DATABASE_UNAVAILABLE_CODES.has(Number((err as { code?: unknown }).code))) return true;
  // mongoose and the driver wrap a network error at times (a failed retry, a pool cleared).
  return databaseUnavailable(err.cause, depth + 1);
}

/**
 * Any thrown value as an AppError: a database outage becomes `unavailable`
 * (503 with Retry-After at the edge), other unknown errors a generic internal one.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (databaseUnavailable(err))
    return new AppError('unavailable', DATABASE_UNAVAILABLE_MESSAGE, [], { cause: err });
  return new AppError('internal', GENERIC_ERROR_MESSAGE, [], { cause: err });
}
