// ltijs requires mongoose (and the MongoDB driver under it, about 30 MB of a process's memory) when it is loaded,
// for its default MongoDB storage; the tool gives ltijs its own storage plugin (lti/storage.ts), so ltijs never calls
// it. This module puts a stand-in into the require cache under mongoose's own path before ltijs is loaded: ltijs's
// Database module reads `mongoose.Schema` when it is loaded and nothing else unless it is constructed, which ltijs
// does only without a plugin. Any other use throws, so a future ltijs that needs mongoose fails at once and says so.
// Imported by provider.ts before ltijs; ES modules are evaluated in the order they are imported.
import { createRequire, Module } from 'node:module';

const fromLtijs = createRequire(createRequire(import.meta.url).resolve('ltijs'));
const mongoosePath = fromLtijs.resolve('mongoose');

const unused = (what: string) =>
  new Error(
    `ltijs used mongoose (${what}), which this tool does not load: its storage is the PostgreSQL plugin (src/lti/storage.ts).`,
  );
const standIn = new Proxy(
  {
    Schema: function Schema() {
      throw unused('new Schema');
    },
  },
  {
    get(target, property) {
      if (property === 'Schema' || typeof property === 'symbol') return Reflect.get(target, property);
      throw unused(`mongoose.${String(property)}`);
    },
  },
);

if (!fromLtijs.cache[mongoosePath]) {
  const module = new Module(mongoosePath);
  module.filename = mongoosePath;
  module.loaded = true;
  module.exports = standIn;
  fromLtijs.cache[mongoosePath] = module;
}
