// The client's parsers fed arbitrary and hostile JSON: they never throw anything but CheckerError, and the
// shapes the service really sends always parse (fast-check).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  CheckerError,
  parseCallback,
  parseCreatedFolder,
  parseFolderList,
  parseLogin,
  parsePaper,
  parsePaperList,
  parseUpload,
  parseResultField,
} from '../../src/checker/index.js';

const parsers: Array<[string, (body: unknown) => unknown]> = [
  ['login', parseLogin],
  ['paper', (b) => parsePaper(b, 1)],
  ['paper list', (b) => parsePaperList(b, 1)],
  ['folder list', parseFolderList],
  ['created folder', parseCreatedFolder],
  ['upload', (b) => parseUpload(b, 1)],
  ['callback', parseCallback],
  ['result', parseResultField],
];

const onlyTypedErrors = (parse: (body: unknown) => unknown) => (body: unknown) => {
  try {
    parse(body);
  } catch (error) {
    if (!(error instanceof CheckerError)) throw error;
  }
};

/** Real-looking answers with any field swapped for something odd. */
const weird = fc.oneof(
  fc.constant('--'),
  fc.constant('NA'),
  fc.constant('doc:error'),
  fc.constant('DREP'),
  fc.constant(''),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.array(fc.anything()),
  fc.object(),
);
const paperLike = fc.record(
  {
    paper_id: fc.oneof(fc.integer({ min: 1 }), fc.string(), weird),
    percent: weird,
    ai: weird,
    grammar: weird,
    d_key: weird,
    title: weird,
    flag: weird,
    total_words: weird,
  },
  { requiredKeys: [] },
);

for (const [name, parse] of parsers) {
  test(`${name}: arbitrary JSON and anything else give a value or a CheckerError, nothing else`, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.json().map((text) => JSON.parse(text) as unknown),
          paperLike,
          fc.record({ _embedded: fc.record({ submissionsList: fc.array(paperLike) }) }),
          fc.record({ folders: fc.record({ content: fc.array(fc.object()) }) }),
          fc.record({ submissions: paperLike }),
          fc.record({ _links: fc.record({ self: fc.record({ href: fc.string() }) }) }),
        ),
        onlyTypedErrors(parse),
      ),
      { numRuns: 400 },
    );
  });
}

test('placeholders read as the service means them', () => {
  assert.deepEqual(parseResultField('--'), { state: 'pending' });
  assert.deepEqual(parseResultField('NA'), { state: 'pending' });
  assert.deepEqual(parseResultField('doc:error'), { state: 'error', reason: 'unreadable' });
  assert.deepEqual(parseResultField('DREP'), { state: 'error', reason: 'duplicate-in-repository' });
  assert.deepEqual(parseResultField('42'), { state: 'done', percent: 42 });
  assert.deepEqual(parseResultField('17%'), { state: 'done', percent: 17 });
  assert.deepEqual(parseResultField(250), { state: 'error', reason: 'unknown' });
});

test('valid submissions always parse, whatever their numbers, with numbers given as strings', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 2 ** 40 }),
      fc.integer({ min: 0, max: 100 }),
      fc.stringMatching(/^[A-Z0-9]{20}$/),
      (paperId, percent, key) => {
        const paper = parsePaper(
          { paper_id: String(paperId), percent: String(percent), ai: '3', d_key: key, extra_field: { anything: true } },
          7,
        );
        assert.equal(paper.paperId, paperId);
        assert.deepEqual(paper.similarity, { state: 'done', percent });
        assert.equal(paper.reportKey, key);
        assert.equal(paper.folderId, 7);
      },
    ),
  );
});

test('a folder id comes from the last segment of _links.self.href', () => {
  assert.equal(
    parseCreatedFolder({ status: 200, _links: { self: { href: 'https://service/extreme/folder/4321' } } }),
    4321,
  );
  assert.throws(
    () => parseCreatedFolder({ _links: { self: { href: 'https://service/extreme/folder/' } } }),
    CheckerError,
  );
});
