import { ObjectId, serialize } from 'bson';
import { collectionOf, commandOf, scansCollection } from './mongo-commands';

/** An OP_MSG as a driver sends it: header, flag bits, one body section. */
function opMsg(body: Record<string, unknown>, requestId = 7): Buffer {
  const doc = Buffer.from(serialize(body));
  const message = Buffer.alloc(16 + 4 + 1 + doc.length);
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(requestId, 4);
  message.writeInt32LE(0, 8);
  message.writeInt32LE(2013, 12);
  message[20] = 0;
  doc.copy(message, 21);
  return message;
}

describe('reading a command off the wire', () => {
  it('names the command and the collection it works on', () => {
    const find = opMsg({ find: 'versions', filter: { shop: 'a' }, $db: 'rules' });
    expect(commandOf(find)).toBe('find');
    expect(collectionOf(find)).toBe('versions');
    const update = opMsg({ update: 'rulesets_é', updates: [], $db: 'rules' });
    expect(collectionOf(update)).toBe('rulesets_é');
  });

  it('gives no collection when the first value is not a name', () => {
    expect(collectionOf(opMsg({ ping: 1, $db: 'admin' }))).toBeUndefined();
    expect(commandOf(opMsg({ ping: 1, $db: 'admin' }))).toBe('ping');
  });
});

describe('which commands FerretDB answers by reading the whole collection', () => {
  it('scans for any filter but _id alone', () => {
    const id = new ObjectId();
    expect(scansCollection(opMsg({ find: 'rulesets', filter: { _id: id }, $db: 'r' }))).toBe(false);
    expect(scansCollection(opMsg({ find: 'c', filter: { _id: 'a/b/1' }, $db: 'r' }))).toBe(false);
    expect(
      scansCollection(opMsg({ find: 'rulesets', filter: { _id: id, shop: 's' }, $db: 'r' })),
    ).toBe(true);
    expect(scansCollection(opMsg({ find: 'c', filter: { _id: { $in: [id] } }, $db: 'r' }))).toBe(
      true,
    );
    expect(scansCollection(opMsg({ findAndModify: 'c', query: { shop: 's' }, $db: 'r' }))).toBe(
      true,
    );
    expect(
      scansCollection(opMsg({ update: 'c', updates: [{ q: { _id: id }, u: {} }], $db: 'r' })),
    ).toBe(false);
    expect(scansCollection(opMsg({ delete: 'c', deletes: [{ q: { shop: 's' } }], $db: 'r' }))).toBe(
      true,
    );
    expect(scansCollection(opMsg({ insert: 'c', documents: [{ a: 1 }], $db: 'r' }))).toBe(false);
  });

  it('reads filters sent as a document sequence (kind 1), as drivers send updates', () => {
    const body = Buffer.from(serialize({ update: 'c', $db: 'r' }));
    const docs = [
      { q: { _id: 'x' }, u: {} },
      { q: { shop: 's' }, u: {} },
    ].map((d) => Buffer.from(serialize(d)));
    const name = Buffer.from('updates\0', 'latin1');
    const seqSize = 4 + name.length + docs.reduce((n, d) => n + d.length, 0);
    const message = Buffer.alloc(16 + 4 + 1 + body.length + 1 + seqSize);
    message.writeInt32LE(message.length, 0);
    message.writeInt32LE(2013, 12);
    message[20] = 0;
    body.copy(message, 21);
    let at = 21 + body.length;
    message[at] = 1;
    message.writeInt32LE(seqSize, at + 1);
    name.copy(message, at + 5);
    at += 5 + name.length;
    for (const d of docs) {
      d.copy(message, at);
      at += d.length;
    }
    expect(scansCollection(message)).toBe(true);
  });
});
