import { serialize } from 'bson';
import { collectionOf, commandOf } from './mongo-commands';

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
