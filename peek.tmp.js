const { MongoClient } = require('mongodb');
(async () => {
  const c = await MongoClient.connect('mongodb://127.0.0.1:40599/');
  const dbs = await c.db().admin().listDatabases();
  for (const d of dbs.databases) {
    const cols = await c.db(d.name).listCollections().toArray();
    for (const col of cols) console.log(d.name, col.name, await c.db(d.name).collection(col.name).countDocuments());
  }
  await c.close();
})();
