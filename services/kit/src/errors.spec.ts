import mongoose from 'mongoose';
import {
  AppError,
  DATABASE_UNAVAILABLE_MESSAGE,
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

  // Killing MongoDB made a rules call answer 500 when server selection gave up before the
  // gateway's own timeout (tools/devstack/test/faults/admin-faults.int.spec.ts).
  it('turns a database outage into unavailable (503), whichever driver error says so', () => {
    const { MongoNetworkError, MongoServerError, MongoServerSelectionError } = mongoose.mongo;
    const { MongoServerClosedError, MongoOperationTimeoutError } =
      mongoose.mongo as unknown as Record<string, new (...args: never[]) => Error>;
    const wrapped = new Error('retry failed', {
      cause: new MongoNetworkError('read ECONNRESET'),
    });
    const outages = [
      new MongoServerSelectionError('connect ECONNREFUSED 127.0.0.1:27017', {} as never),
      new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed'),
      new MongoServerError({ message: 'operation exceeded time limit', code: 50 }),
      new MongoServerError({ message: 'interrupted at shutdown', code: 11600 }),
      new MongoServerError({ message: 'not primary', code: 10107 }),
      new MongoServerClosedError!(),
      new MongoOperationTimeoutError!('timed out' as never),
      wrapped,
    ];
    for (const cause of outages) {
      const error = toAppError(cause);
      expect([error.kind, error.message, httpStatusOf(error.kind)]).toEqual([
        'unavailable',
        DATABASE_UNAVAILABLE_MESSAGE,
        503,
      ]);
      expect(error.cause).toBe(cause);
    }
    // Other server errors stay internal.
    const duplicate = new MongoServerError({ message: 'E11000 duplicate key', code: 11000 });
    expect(toAppError(duplicate).kind).toBe('internal');
  });
});
