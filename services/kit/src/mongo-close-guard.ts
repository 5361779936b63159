import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import mongoose from 'mongoose';

/** What the guard uses of the driver's connection class (mongodb/lib/cmap/connection.js). */
interface DriverConnection extends EventEmitter {
  id: number | string;
  closed: boolean;
  error: Error | null;
  writeCommand(...args: unknown[]): Promise<void>;
}

let guarded = false;

/**
 * The MongoDB driver (7.x) serialises a command, awaits that, then writes it. A
 * connection that closes in between (its server restarted or its socket reset)
 * takes the write without a word: a destroyed socket neither fails a write nor
 * drains, and the socket timeout went with the socket, so the command waits for
 * ever. Found in the checkout fault test (FerretDB killed and restarted under
 * load): the driver's monitor stuck so keeps the server Unknown, and every later
 * query of the process fails server selection; an application command stuck so
 * blocks whatever awaits it (a shop's snapshot publishes, one after another).
 *
 * The guard fails such a write with the connection's own error when the
 * connection closes, as the driver does for a command already reading; the
 * driver then retries or reports it like any network error.
 * services/kit/test/mongo.int.spec.ts shows the hang without it.
 */
export function guardClosedConnections(): void {
  if (guarded) return;
  // The copy of the driver mongoose loads, whatever the install's layout.
  const fromMongoose = createRequire(require.resolve('mongoose'));
  const { Connection } = fromMongoose('mongodb/lib/cmap/connection') as {
    Connection: { prototype: DriverConnection };
  };
  const write = Connection.prototype.writeCommand;
  if (typeof write !== 'function')
    throw new Error(
      "the MongoDB driver's Connection has no writeCommand: review services/kit/src/mongo-close-guard.ts",
    );
  const closedError = (connection: DriverConnection) =>
    connection.error ?? new mongoose.mongo.MongoNetworkError(`connection ${connection.id} closed`);
  Connection.prototype.writeCommand = function (this: DriverConnection, ...args: unknown[]) {
    if (this.closed) return Promise.reject(closedError(this));
    return new Promise<void>((resolve, reject) => {
      const onClose = () => reject(closedError(this));
      this.once('close', onClose);
      write
        .apply(this, args)
        .then(resolve, reject)
        .finally(() => this.off('close', onClose));
    });
  };
  guarded = true;
}
