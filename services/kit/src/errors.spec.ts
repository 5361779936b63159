import {
  AppError,
  GENERIC_ERROR_MESSAGE,
  httpStatusOf,
  kindFromProto,
  kindToProto,
  toAppError,
  type ErrorKind,
} from './errors';

describe('errors', () => {
  const kinds: ErrorKind[] = [
    'invalid_data',
    'not_found',
    'conflict',
    'unauthorized',
    'forbidden',
    'unavailable',
    'internal',
  ];

  it('maps each kind to its HTTP status', () => {
    expect(kinds.map(httpStatusOf)).toEqual([400, 404, 409, 401, 403, 503, 500]);
  });

  it('round-trips each kind through the protobuf enum', () => {
    for (const kind of kinds) expect(kindFromProto(kindToProto(kind))).toBe(kind);
  });

  it('turns unknown errors into a generic internal error that keeps the cause', () => {
    const cause = new Error('E11000 duplicate key in collection secret_stuff');
    const error = toAppError(cause);
    expect(error.kind).toBe('internal');
    expect(error.message).toBe(GENERIC_ERROR_MESSAGE);
    expect(error.cause).toBe(cause);
    const known = new AppError('not_found', 'Ruleset not found.');
    expect(toAppError(known)).toBe(known);
  });
});
