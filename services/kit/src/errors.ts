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

/** Any thrown value as an AppError; unknown errors become a generic internal one. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('internal', GENERIC_ERROR_MESSAGE, [], { cause: err });
}
