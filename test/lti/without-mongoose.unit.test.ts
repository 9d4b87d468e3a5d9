// ltijs is loaded without mongoose and the MongoDB driver (src/lti/ltijs/without-mongoose.ts): the tool's storage is its
// PostgreSQL plugin, and the 30 MB of a MongoDB client are not in any of its processes.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import '../../src/lti/ltijs/provider.js';

const fromLtijs = createRequire(createRequire(import.meta.url).resolve('ltijs'));

test('ltijs loads with a stand-in for mongoose, and neither mongoose nor the MongoDB driver is loaded', () => {
  const loaded = Object.keys(fromLtijs.cache);
  assert.ok(
    loaded.some((path) => path.includes('/ltijs/dist/Provider/Provider.js')),
    'ltijs itself was loaded',
  );
  // The one entry under mongoose's path is the stand-in; the real package would bring its lib/ and the driver.
  const standIn = fromLtijs.resolve('mongoose');
  assert.deepEqual(
    loaded.filter((path) => /\/node_modules\/(mongoose|mongodb|bson)\//.test(path) && path !== standIn),
    [],
  );
});

test('a use of mongoose beyond what ltijs reads when it loads fails at once with a sentence', () => {
  const mongoose = fromLtijs('mongoose') as { connect(): unknown; Schema: new () => unknown };
  assert.throws(() => mongoose.connect(), /ltijs used mongoose \(mongoose\.connect\), which this tool does not load/);
  assert.throws(() => new mongoose.Schema(), /ltijs used mongoose \(new Schema\)/);
});
