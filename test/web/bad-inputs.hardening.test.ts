// The bad-input catalogue: id_tokens, uploads, callbacks, forms and query strings that a careless or hostile
// client sends, each with the answer it must get. After every case the tool is still up, and nothing was written
// that the case should not write (rows counted before and after, no file left half-received, settings unchanged).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { after, before, test } from 'node:test';
import { SignJWT, generateKeyPair } from 'jose';
import { launch } from '../../src/devplatform/agent.js';
import type { AssignmentSettings } from '../../src/assignments/settings.js';
import { QUEUES } from '../../src/jobs/index.js';
import { allowResubmission, essay, recordFigures } from '../support/hardening.js';
import { settingsForm } from '../support/forms.js';
import { launchClaims, payloadOf } from '../support/id-token.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { unclaimedChunks } from '../support/stored-files.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { shownSimilarity } from '../support/gradebook-cell.js';

const ADMIN_TOKEN = 'hardening-inputs-admin-token-0123456789';
const CALLBACK_SECRET = 'hardening-inputs-callback-secret-0123';
/** Breaks out of an attribute and a text node alike; it must come back escaped wherever it is shown. */
const XSS = `"><img src=x onerror=alert(1)><script>alert(1)</script>`;
const XSS_RAW = [/<img src=x onerror=alert\(1\)>/, /<script>alert\(1\)<\/script>/];
const SQL = `Robert'); DROP TABLE submission; --`;

let tool: TestTool;
let lms: TestPlatform;
let assignmentPath = '';
const ltiks: Record<'instructor' | 'student' | 'deepLinking', string> = {
  instructor: '',
  student: '',
  deepLinking: '',
};
const db = () => tool.tool.database.db;

before(async () => {
  // No poll falls due for ten minutes: a paper whose callback the sandbox dropped stays in processing until the test
  // sends a callback for it (see heldInProcessing).
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '300',
    JOB_POLLING_SECONDS: '0.5',
    POLL_SCHEDULE_SECONDS: '600',
    ADMIN_TOKEN,
    CALLBACK_SECRET,
  });
  lms = await startTestPlatform(tool);
  lms.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1', lineItem: { label: 'Essay 1', scoreMaximum: 100 } });
  const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-1' });
  assignmentPath = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  ltiks.instructor = instructor.ltik!;
  ltiks.student = (await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' })).ltik!;
  // The deep-linking page carries its session key in its form.
  ltiks.deepLinking = /name="ltik" value="([^"]+)"/.exec(
    (await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest' })).body,
  )![1]!;
  await allowResubmission(db(), assignmentPath);
  const settings = await currentSettings();
  await db()
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...settings, maxFileMb: 1 }) })
    .where('id', '=', assignmentId())
    .execute();
});
after(async () => {
  await lms?.close();
  await tool?.stop();
});

const assignmentId = () => assignmentPath.split('/').pop()!;
async function currentSettings(): Promise<AssignmentSettings> {
  const row = await db()
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId())
    .executeTakeFirstOrThrow();
  return row.settings as AssignmentSettings;
}

interface Answer {
  status: number;
  body: string;
}

async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, body: await response.text() };
}

// ---- what "nothing half-written" is measured by ----

const COUNTED = ['submission', 'assignment', 'lti_user', 'course_member', 'platform', 'checker_account'] as const;
type Counted = (typeof COUNTED)[number] | 'session' | 'platformKeys';

async function counts(): Promise<Record<Counted, number>> {
  const result = {} as Record<Counted, number>;
  for (const table of COUNTED)
    result[table] = Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM lti_record WHERE collection = 'session'",
  );
  result.session = Number(rows[0]!.n);
  // The tool's key pairs, in the platform table (ltijs's records would hold a copy: counted too, and never one).
  const keys = await tool.tool.database.pool.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM platform WHERE key_id IS NOT NULL)
          + (SELECT count(*) FROM lti_record WHERE collection IN ('platform', 'publickey', 'privatekey')) AS n`,
  );
  result.platformKeys = Number(keys.rows[0]!.n);
  return result;
}

/** What files still being received left in the database (a refused upload must leave nothing). */
const halfReceived = () => unclaimedChunks(tool.tool.database.db);

interface Case {
  name: string;
  /** Sets up what the case needs, before the rows are counted. */
  prepare?(): Promise<void>;
  send(): Promise<Answer>;
  status: number;
  /** Rows the case writes when it is answered as expected (by default none). */
  adds?: Partial<Record<Counted, number>>;
  /** The case may change the assignment's settings (they are put back afterwards). */
  changesSettings?: boolean;
  /** More of what the answer must be (shown escaped, a clean label, ...). */
  check?(answer: Answer): void | Promise<void>;
}

/** Runs a group of cases, one test each, and records how many were answered exactly as expected. */
function catalogue(group: string, cases: Case[]): void {
  for (const c of cases) {
    test(`${group}: ${c.name}`, async () => {
      await c.prepare?.();
      const before = await counts();
      const settingsBefore = JSON.stringify(await currentSettings());
      const answer = await c.send();
      const after = await counts();
      const written = Object.fromEntries(
        Object.keys(after)
          .map((key) => [key, after[key as Counted] - before[key as Counted]])
          .filter(([, n]) => n !== 0),
      );
      const expectedWrites = Object.fromEntries(Object.entries(c.adds ?? {}).filter(([, n]) => n !== 0));
      const settingsAfter = JSON.stringify(await currentSettings());
      const alive = (await fetch(`${tool.url}/healthz`).catch(() => null))?.status === 200;
      let failedCheck: unknown = null;
      try {
        await c.check?.(answer);
      } catch (error) {
        failedCheck = error;
      }
      const settingsKept = c.changesSettings || settingsAfter === settingsBefore;
      if (settingsAfter !== settingsBefore)
        await db()
          .updateTable('assignment')
          .set({ settings: settingsBefore })
          .where('id', '=', assignmentId())
          .execute();
      const rowsAsExpected = Object.keys({ ...written, ...expectedWrites }).every(
        (key) => written[key] === expectedWrites[key],
      );
      const asExpected =
        answer.status === c.status &&
        rowsAsExpected &&
        settingsKept &&
        alive &&
        (await halfReceived()) === 0 &&
        !failedCheck;
      recordFigures({ badInputs: 1, badInputsAsExpected: asExpected ? 1 : 0 });
      assert.equal(
        answer.status,
        c.status,
        answer.body
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 400),
      );
      assert.deepEqual(written, expectedWrites, 'rows written');
      assert.ok(settingsKept, 'the settings changed');
      assert.ok(alive, 'the tool does not answer /healthz');
      assert.equal(await halfReceived(), 0, 'a half-received file was left behind');
      if (failedCheck) throw failedCheck;
    });
  }
}

const refusesEscaped = (answer: Answer) => {
  for (const raw of XSS_RAW) assert.doesNotMatch(answer.body, raw, 'a payload came back unescaped');
};
async function showsEscaped(path: string, who: keyof typeof ltiks): Promise<void> {
  const page = await fetch(`${tool.url}${path}${path.includes('?') ? '&' : '?'}ltik=${encodeURIComponent(ltiks[who])}`);
  const body = await page.text();
  assert.equal(page.status, 200, `${path} answered ${page.status}`);
  refusesEscaped({ status: page.status, body });
  assert.ok(body.includes('&lt;img src=x onerror=alert(1)&gt;'), `${path} does not show the payload escaped`);
}

// ---- id_tokens ----

async function launchWith(
  replaceIdToken: (original: string) => Promise<string> | string,
  editForm?: (fields: Record<string, string>) => Record<string, string>,
): Promise<Answer> {
  const result = await launch(lms.platform, {
    userId: 'student-1',
    resourceLinkId: 'essay-1',
    replaceIdToken,
    ...(editForm ? { editForm } : {}),
  });
  return { status: result.status, body: result.body };
}
const signed = (overrides: Record<string, unknown>, options?: { expiresInSeconds?: number }) => () =>
  lms.platform.sign(launchClaims(lms.platform, overrides), options);
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const without =
  (...names: string[]) =>
  () => {
    const claims = launchClaims(lms.platform);
    for (const name of names) delete claims[name];
    return lms.platform.sign(claims);
  };
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

catalogue('id_token', [
  {
    name: 'signed with another key',
    status: 401,
    send: () =>
      launchWith(async () =>
        new SignJWT(launchClaims(lms.platform))
          .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign((await generateKeyPair('RS256')).privateKey),
      ),
  },
  {
    name: 'unsigned (alg "none")',
    status: 401,
    send: () =>
      launchWith(
        () =>
          `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(launchClaims(lms.platform, { exp: Math.floor(Date.now() / 1000) + 300 }))}.`,
      ),
  },
  {
    name: 'signed with a shared secret (HS256)',
    status: 401,
    send: () =>
      launchWith(() =>
        new SignJWT(launchClaims(lms.platform))
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('guessed-secret-guessed-secret-32')),
      ),
  },
  {
    name: 'expired',
    status: 401,
    send: () => launchWith(signed({ iat: Math.floor(Date.now() / 1000) - 600 }, { expiresInSeconds: -60 })),
  },
  {
    name: 'not valid before an hour from now (nbf)',
    status: 401,
    send: () => launchWith(signed({ nbf: Math.floor(Date.now() / 1000) + 3600 })),
  },
  { name: 'for another audience', status: 403, send: () => launchWith(signed({ aud: 'someone-else' })) },
  {
    name: 'for a list of audiences without the tool',
    status: 403,
    send: () => launchWith(signed({ aud: ['someone-else', 'another-one'] })),
  },
  {
    name: 'for an unknown deployment',
    status: 403,
    send: () => launchWith(signed({ [`${CLAIM}/deployment_id`]: 'deployment-unknown' })),
  },
  {
    name: 'from another issuer than the login',
    status: 401,
    send: () => launchWith(signed({ iss: 'https://lms.elsewhere.example' })),
  },
  // The student launched before: a launch again writes no new row, and its id_token is then sent a second time.
  {
    name: 'replayed (its nonce was used)',
    status: 401,
    send: async () => {
      const first = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' });
      return launchWith(() => first.idToken);
    },
  },
  { name: 'without a nonce', status: 401, send: () => launchWith(without('nonce')) },
  {
    name: 'without roles and version',
    status: 401,
    send: () => launchWith(without(`${CLAIM}/roles`, `${CLAIM}/version`)),
  },
  { name: 'without a deployment id', status: 401, send: () => launchWith(without(`${CLAIM}/deployment_id`)) },
  {
    name: 'of an unknown message type',
    status: 401,
    send: () => launchWith(signed({ [`${CLAIM}/message_type`]: 'LtiSomethingElseRequest' })),
  },
  { name: 'of LTI version 1.1', status: 401, send: () => launchWith(signed({ [`${CLAIM}/version`]: '1.1.0' })) },
  { name: 'oversized (70 KB of claims)', status: 413, send: () => launchWith(signed({ padding: 'x'.repeat(70_000) })) },
  { name: 'not a JWT at all', status: 401, send: () => launchWith(() => 'not-a-jwt') },
  {
    name: 'cut short (no signature)',
    status: 401,
    send: () => launchWith((original) => original.split('.').slice(0, 2).join('.')),
  },
  {
    name: 'with its payload altered after signing',
    status: 401,
    send: () =>
      launchWith((original) =>
        [
          original.split('.')[0],
          base64url({ ...payloadOf(original), sub: 'instructor-1' }),
          original.split('.')[2],
        ].join('.'),
      ),
  },
  {
    name: 'with no state',
    status: 400,
    send: () =>
      launchWith(
        (original) => original,
        ({ state: _state, ...rest }) => rest,
      ),
  },
  {
    name: 'with a state the tool never issued',
    status: 401,
    send: () =>
      launchWith(
        (original) => original,
        (fields) => ({ ...fields, state: 'not-issued-by-the-tool' }),
      ),
  },
]);

// ---- uploads ----

/** A multipart body written by hand, so that its part headers can be anything. */
function multipart(
  parts: Array<{ disposition: string; content: Buffer | string }>,
  options: { close?: boolean } = {},
): { body: Buffer; type: string } {
  const boundary = `hardening${Math.random().toString(16).slice(2)}`;
  const chunks = parts.flatMap((part) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: ${part.disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      'utf8',
    ),
    Buffer.from(part.content),
    Buffer.from('\r\n'),
  ]);
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
const filePart = (fileName: string, content: Buffer | string) => ({
  disposition: `form-data; name="file"; filename="${fileName}"`,
  content,
});

async function upload(
  body: Buffer | string,
  type: string,
  options: { path?: string; ltik?: string } = {},
): Promise<Answer> {
  return answerOf(
    await fetch(`${tool.url}${options.path ?? assignmentPath}/submissions`, {
      method: 'POST',
      body,
      headers: {
        'content-type': type,
        accept: 'application/json',
        authorization: `Bearer ${options.ltik ?? ltiks.student}`,
      },
    }),
  );
}
function uploadParts(
  parts: Parameters<typeof multipart>[0],
  options: { path?: string; ltik?: string; close?: boolean } = {},
): Promise<Answer> {
  const { body, type } = multipart(parts, options);
  return upload(body, type, options);
}
const uploadFile = (fileName: string, content: Buffer | string) => uploadParts([filePart(fileName, content)]);
const label = (answer: Answer) => String((JSON.parse(answer.body) as { fileName?: string }).fileName);

/** A ZIP archive with deflated entries, built by hand: an entry can stand for far more bytes than it weighs. */
async function zipArchive(
  entries: Array<{ name: string; content: string } | { name: string; zeros: number }>,
): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const deflater = createDeflateRaw();
    const compressed: Buffer[] = [];
    deflater.on('data', (chunk: Buffer) => compressed.push(chunk));
    let crc = 0;
    let size = 0;
    const chunks =
      'content' in entry
        ? [Buffer.from(entry.content)]
        : Array.from({ length: entry.zeros / 1048576 }, () => Buffer.alloc(1048576));
    for (const chunk of chunks) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      if (!deflater.write(chunk)) await new Promise((resolve) => deflater.once('drain', resolve));
    }
    await new Promise((resolve) => deflater.end(resolve));
    const data = Buffer.concat(compressed);
    const name = Buffer.from(entry.name);
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(8, at); // deflate
      header.writeUInt32LE(crc >>> 0, at + 6);
      header.writeUInt32LE(data.length, at + 10);
      header.writeUInt32LE(size, at + 14);
      header.writeUInt16LE(name.length, at + 18);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    fields(local, 8);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    fields(record, 10);
    record.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(record, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A request whose Content-Length claims far more than it sends: refused before the body is read. */
function lyingLength(): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { body, type } = multipart([filePart('huge.txt', 'a little')]);
    const req = httpRequest(`${tool.url}${assignmentPath}/submissions`, {
      method: 'POST',
      headers: {
        'content-type': type,
        'content-length': String(2 * 1024 ** 3),
        accept: 'application/json',
        authorization: `Bearer ${ltiks.student}`,
      },
    });
    req.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        req.destroy();
        resolve({ status: response.statusCode ?? 0, body: text });
      });
    });
    req.on('error', reject);
    req.write(body);
  });
}

const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4000, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 3)]);
let dressedBomb: Buffer = Buffer.alloc(0);
const WORD_XML = (text: string) =>
  `<?xml version="1.0"?><w:document><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`;

catalogue('upload', [
  { name: 'an empty file', status: 400, send: () => uploadFile('empty.txt', '') },
  {
    name: 'a file over the assignment limit (1 MB)',
    status: 413,
    send: () => uploadFile('big.txt', 'word '.repeat(260_000)),
  },
  { name: 'a Content-Length of 2 GB, refused unread', status: 413, send: lyingLength },
  { name: 'an image (PNG)', status: 422, send: () => uploadFile('photo.png', PNG) },
  {
    name: 'a Windows executable named .pdf',
    status: 422,
    send: () => uploadFile('essay.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4000, 1)])),
  },
  { name: 'a Linux executable named .txt', status: 422, send: () => uploadFile('essay.txt', ELF) },
  {
    name: 'a plain ZIP named .docx',
    status: 422,
    send: async () => uploadFile('essay.docx', await zipArchive([{ name: 'notes.txt', content: essay('zip notes') }])),
  },
  {
    name: 'a zip bomb (100 MB of zeros in 100 KB) named .docx',
    status: 422,
    send: async () => uploadFile('essay.docx', await zipArchive([{ name: 'bomb.bin', zeros: 100 * 1048576 }])),
  },
  {
    name: 'a zip bomb dressed as Word: taken as the file sent, never unpacked by the tool',
    status: 201,
    adds: { submission: 1 },
    send: async () => {
      dressedBomb = await zipArchive([
        { name: '[Content_Types].xml', content: '<Types/>' },
        { name: 'word/document.xml', content: WORD_XML(essay('dressed bomb')) },
        { name: 'word/media/filler.bin', zeros: 100 * 1048576 },
      ]);
      return uploadFile('dressed.docx', dressedBomb);
    },
    check: (answer) =>
      assert.equal(
        (JSON.parse(answer.body) as { size: number }).size,
        dressedBomb.length,
        'the receipt is not of the file as sent',
      ),
  },
  {
    name: 'a PDF named .txt is taken as the PDF it is',
    status: 201,
    adds: { submission: 1 },
    send: () => uploadFile('essay.txt', `%PDF-1.4\n${essay('disguised pdf')}`),
    check: (answer) => assert.equal(label(answer), 'essay.pdf'),
  },
  {
    name: 'a path in the name (../../../etc/passwd.txt)',
    status: 201,
    adds: { submission: 1 },
    send: () => uploadFile('../../../etc/passwd.txt', essay('traversal')),
    check: (answer) => assert.equal(label(answer), 'passwd.txt'),
  },
  {
    name: 'a Windows path in the name (..\\..\\boot.ini)',
    status: 201,
    adds: { submission: 1 },
    send: () => uploadFile('..\\..\\boot.ini', essay('windows traversal')),
    check: (answer) => assert.equal(label(answer), 'boot.txt'),
  },
  {
    name: 'control characters in the name, encoded (filename*)',
    status: 201,
    adds: { submission: 1 },
    send: () =>
      uploadParts([
        {
          disposition: `form-data; name="file"; filename*=UTF-8''essay%07%1B%00%0D%0A.txt`,
          content: essay('encoded controls'),
        },
      ]),
    check: (answer) => assert.equal(label(answer), 'essay.txt'),
  },
  {
    name: 'raw control characters in the part header',
    status: 400,
    send: () => uploadFile('essay\u0007\u001b.txt', essay('raw controls')),
  },
  {
    name: 'a 10,000-character name',
    status: 201,
    adds: { submission: 1 },
    send: () => uploadFile(`${'a'.repeat(9996)}.txt`, essay('long name')),
    check: (answer) => assert.ok(label(answer).length <= 120 && label(answer).endsWith('.txt'), label(answer)),
  },
  // 20 KB of part header: past what the form parser reads of one, so refused whole.
  {
    name: 'a 10,000-character name in two-byte letters',
    status: 400,
    send: () => uploadFile(`${'é'.repeat(9996)}.txt`, essay('long accented name')),
    check: (answer) => assert.match(answer.body, /could not be read/),
  },
  {
    name: 'markup in the name is shown as text',
    status: 201,
    adds: { submission: 1 },
    send: () => uploadFile('<img src=x onerror=alert(1)>.txt', essay('markup name')),
    check: () => showsEscaped(assignmentPath, 'student'),
  },
  {
    name: 'SQL in the name is kept as text',
    status: 201,
    adds: { submission: 1 },
    send: () => uploadFile(`${SQL}.txt`, essay('sql name')),
    check: (answer) => assert.equal(label(answer), `${SQL}.txt`),
  },
  {
    name: 'two files in one request',
    status: 400,
    send: () => uploadParts([filePart('a.txt', essay('two a')), filePart('b.txt', essay('two b'))]),
  },
  {
    name: 'no file, only a field',
    status: 400,
    send: () => uploadParts([{ disposition: 'form-data; name="note"', content: 'forgot it' }]),
  },
  {
    name: 'the file under another field name',
    status: 400,
    send: () =>
      uploadParts([
        { disposition: 'form-data; name="attachment"; filename="essay.txt"', content: essay('other field') },
      ]),
  },
  {
    name: 'twenty form fields',
    status: 400,
    send: () =>
      uploadParts(Array.from({ length: 20 }, (_, i) => ({ disposition: `form-data; name="f${i}"`, content: 'x' }))),
  },
  {
    name: 'a body cut off before its closing boundary',
    status: 400,
    send: () => uploadParts([filePart('cut.txt', essay('cut off'))], { close: false }),
  },
  { name: 'multipart without a boundary', status: 400, send: () => upload('--x\r\n\r\n', 'multipart/form-data') },
  {
    name: 'JSON instead of a form upload',
    status: 415,
    send: () => upload(JSON.stringify({ file: essay('json') }), 'application/json'),
  },
  {
    name: 'to an assignment id that is not one',
    status: 404,
    send: () => uploadParts([filePart('essay.txt', essay('bad id'))], { path: '/assignments/..%2F..%2Fadmin' }),
  },
  {
    name: 'to an assignment that does not exist',
    status: 404,
    send: () =>
      uploadParts([filePart('essay.txt', essay('no assignment'))], {
        path: '/assignments/00000000-0000-4000-8000-000000000000',
      }),
  },
  {
    name: 'with a session key the tool never issued',
    status: 401,
    send: () =>
      uploadParts([filePart('essay.txt', essay('forged ltik'))], {
        ltik: `${base64url({ alg: 'HS256' })}.${base64url({ user: 'student-1' })}.forged`,
      }),
  },
]);

// ---- callbacks (PUT /checker/callback/<secret>) ----

async function callback(
  body: string,
  options: { secret?: string; method?: string; type?: string } = {},
): Promise<Answer> {
  return answerOf(
    await fetch(`${tool.url}/checker/callback/${options.secret ?? CALLBACK_SECRET}`, {
      method: options.method ?? 'PUT',
      headers: { 'content-type': options.type ?? 'application/json' },
      body: options.method === 'GET' ? null : body,
    }),
  );
}
const paperBody = (fields: Record<string, unknown>) =>
  JSON.stringify({ paper_id: 700001, similarity: '12%', flag: 0, ...fields });
async function noSubmissionHolds(paperId: number): Promise<void> {
  const rows = await db().selectFrom('submission').select('id').where('paper_id', '=', String(paperId)).execute();
  assert.deepEqual(rows, []);
}

/** Asks `check` every 50 ms until it gives a value; fails naming `what` after the deadline. */
async function pollUntil<T>(what: string, check: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) assert.fail(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const submissionRow = (id: string) =>
  db().selectFrom('submission').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
type SubmissionRow = Awaited<ReturnType<typeof submissionRow>>;

/** Jobs in one of `states` whose data names this submission or paper (outside the queues `except` names). */
async function jobsIn(
  states: string[],
  field: 'submissionId' | 'paperId',
  value: string,
  except: string[] = [],
): Promise<number> {
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM pgboss.job WHERE state::text = ANY($1) AND data->>$2 = $3 AND NOT (name = ANY($4))',
    [states, field, value, except],
  );
  return Number(rows[0]!.n);
}

interface Held {
  id: string;
  paperId: number;
  /** Its row, in processing, once nothing is left to do for it until a callback comes. */
  row: SubmissionRow;
  /** What the service has for it: the result a callback must lead the tool to read back. */
  result: { similarity: number; reportKey: string; aiScore: number | null };
}

/**
 * A real submission in processing whose paper the service has finished: its callback dropped by the sandbox, and no
 * poll due for ten minutes, so only a callback the test sends moves it on.
 */
async function heldInProcessing(seed: string): Promise<Held> {
  const sandbox = tool.tool.sandbox!;
  sandbox.setFaults({ callbacks: 'drop' });
  let id: string;
  let paperId: number;
  let result: Held['result'];
  try {
    const answer = await uploadFile(`${seed}.txt`, essay(seed));
    assert.equal(answer.status, 201, answer.body);
    id = (JSON.parse(answer.body) as { submissionId: string }).submissionId;
    paperId = await pollUntil(`submission ${id} accepted by the service`, async () => {
      const row = await submissionRow(id);
      return row.state === 'processing' && row.paper_id !== null ? Number(row.paper_id) : null;
    });
    const folder = await db()
      .selectFrom('assignment')
      .select('folder_id')
      .where('id', '=', assignmentId())
      .executeTakeFirstOrThrow();
    const service = await tool.tool.services.forAssignment(assignmentId());
    const read = await pollUntil(`paper ${paperId} analysed by the service`, async () => {
      const found = await service.result(Number(folder.folder_id), paperId);
      return found.state === 'pending' ? null : found;
    });
    assert.equal(read.state, 'done', `the service did not score paper ${paperId}: ${JSON.stringify(read)}`);
    result = { similarity: read.similarity, reportKey: read.reportKey, aiScore: read.aiScore };
  } finally {
    sandbox.setFaults({});
  }
  // The receipt's and the upload's jobs (the gradebook told "submitted") done: the row changes no more by itself.
  await pollUntil(`the jobs of submission ${id} done`, async () =>
    (await jobsIn(['created', 'retry', 'active'], 'submissionId', id, [QUEUES.poll])) === 0 ? true : null,
  );
  const row = await submissionRow(id);
  assert.equal(row.state, 'processing', 'the held submission moved on without a callback');
  return { id, paperId, row, result };
}

/** The held submission after a callback for it: read back from the service and graded, nothing taken from the callback. */
async function readBackAndGraded(held: Held): Promise<void> {
  const row = await pollUntil(`submission ${held.id} past processing`, async () => {
    const current = await submissionRow(held.id);
    return current.state === 'processing' || current.state === 'scored' ? null : current;
  });
  assert.equal(row.state, 'graded', `ended ${row.state}: ${row.failure_reason ?? row.grade_error ?? ''}`);
  assert.equal(row.paper_id, held.row.paper_id);
  assert.equal(row.report_key, held.result.reportKey, "the report key is not the service's");
  assert.equal(Number(row.similarity), held.result.similarity, "the similarity is not the service's");
  assert.equal(row.ai_score === null ? null : Number(row.ai_score), held.result.aiScore);
  for (const [column, value] of Object.entries(row))
    assert.ok(!(typeof value === 'string' && value.includes('\u0000')), `a NUL character was stored in ${column}`);
  const scored = await db()
    .selectFrom('submission_event')
    .select('reason')
    .where('submission_id', '=', held.id)
    .where('to_state', '=', 'scored')
    .execute();
  assert.equal(scored.length, 1, 'scored more than once');
  assert.doesNotMatch(scored[0]!.reason, /polling/, 'scored by a poll, not after the callback');
  const cell = lms.platform.gradebook().find((grade) => grade.userId === 'student-1');
  assert.equal(shownSimilarity(cell), held.result.similarity, "the gradebook does not hold the service's similarity");
}

let held: Held | null = null;
const holdOne = (seed: string) => async () => void (held = await heldInProcessing(seed));
const heldPaper = () => held!.paperId;

catalogue('callback', [
  {
    name: 'a wrong secret of the right length',
    status: 404,
    send: () => callback(paperBody({}), { secret: CALLBACK_SECRET.replace(/.$/, 'X') }),
  },
  { name: 'a short secret', status: 404, send: () => callback(paperBody({}), { secret: 'abc' }) },
  {
    name: 'a path instead of the secret',
    status: 404,
    send: () => callback(paperBody({}), { secret: '..%2F..%2Fadmin' }),
  },
  { name: 'no secret', status: 404, send: () => callback(paperBody({}), { secret: '' }) },
  { name: 'GET with the right secret', status: 404, send: () => callback('', { method: 'GET' }) },
  { name: 'POST with the right secret', status: 404, send: () => callback(paperBody({}), { method: 'POST' }) },
  {
    name: 'a body that is not JSON',
    status: 400,
    send: () => callback('paper_id=1&flag=0', { type: 'application/x-www-form-urlencoded' }),
  },
  { name: 'JSON that is an array', status: 400, send: () => callback('[700001]') },
  { name: 'an empty body', status: 400, send: () => callback('') },
  { name: 'paper_id as words', status: 400, send: () => callback(paperBody({ paper_id: 'abc' })) },
  { name: 'a negative paper_id', status: 400, send: () => callback(paperBody({ paper_id: -5 })) },
  { name: 'a fractional paper_id', status: 400, send: () => callback(paperBody({ paper_id: 1.5 })) },
  { name: 'a 16-digit paper_id', status: 400, send: () => callback(paperBody({ paper_id: '9999999999999999' })) },
  { name: 'flag 7', status: 400, send: () => callback(paperBody({ flag: 7 })) },
  { name: 'similarity as an object', status: 400, send: () => callback(paperBody({ similarity: { percent: 12 } })) },
  {
    name: 'a download_url of 5,000 characters',
    status: 400,
    send: () => callback(paperBody({ download_url: `https://x.example/${'a'.repeat(5000)}` })),
  },
  { name: 'a body of 200 KB', status: 413, send: () => callback(paperBody({ padding: 'x'.repeat(200_000) })) },
  { name: '5,000 nested arrays', status: 400, send: () => callback(`${'['.repeat(5000)}${']'.repeat(5000)}`) },
  // For a real paper in processing: the callback is a signal, the result is read back; the URL is not stored.
  {
    name: 'a NUL character in the download_url (not stored)',
    status: 200,
    prepare: holdOne('callback with a nul'),
    send: () =>
      callback(paperBody({ paper_id: heldPaper(), similarity: '99%', download_url: 'https://x.example/\u0000' })),
    check: () => readBackAndGraded(held!),
  },
  {
    name: 'an unknown paper: accepted, and nothing changes',
    status: 200,
    prepare: holdOne('held while an unknown paper is announced'),
    send: () => callback(paperBody({ paper_id: 700002 })),
    check: async () => {
      // Once the tool has acted on the callback (its delayed read-back tried once, or nothing queued at all), the
      // paper in processing is as it was, and no submission took the unknown paper.
      await pollUntil('the tool to act on the callback', async () =>
        (await jobsIn(['created', 'active'], 'paperId', '700002')) === 0 ? true : null,
      );
      assert.deepEqual(await submissionRow(held!.id), held!.row, 'a submission in processing changed');
      await noSubmissionHolds(700002);
    },
  },
  {
    name: 'a __proto__ key: nothing polluted',
    status: 200,
    prepare: holdOne('callback with a proto key'),
    send: () => callback(`{"__proto__": {"polluted": true}, "paper_id": ${heldPaper()}}`),
    check: async () => {
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.ok(!('polluted' in Object.prototype), 'Object.prototype was polluted');
      // Still a callback for its paper: read back and graded like any other.
      await readBackAndGraded(held!);
    },
  },
]);

// ---- forms ----

async function post(path: string, form: URLSearchParams, headers: Record<string, string> = {}): Promise<Answer> {
  return answerOf(
    await fetch(`${tool.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: form.toString(),
    }),
  );
}
/** The settings form with some fields changed (null: left out), sent as the instructor unless told. */
async function postSettings(
  change: Record<string, string | null>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const form = settingsForm(await currentSettings(), ltiks.instructor);
  for (const [name, value] of Object.entries(change)) {
    if (value === null) form.delete(name);
    else form.set(name, value);
  }
  return post(`${assignmentPath}/settings`, form, headers);
}
const ADMIN = { authorization: `AdminToken ${ADMIN_TOKEN}` };
const adminForm = (fields: Record<string, string>) =>
  post(fields.path!, new URLSearchParams(Object.entries(fields).filter(([name]) => name !== 'path')), ADMIN);
const shownEscaped = (answer: Answer) => {
  refusesEscaped(answer);
  assert.ok(answer.body.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the payload is not shown escaped');
};
const storedSettings = async (check: (settings: AssignmentSettings) => void) => check(await currentSettings());

catalogue('form', [
  {
    name: 'markup in the excluded phrases',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ excludedPhrases: XSS }),
    check: () => showsEscaped(`${assignmentPath}/settings`, 'instructor'),
  },
  {
    name: 'markup in the language',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ language: XSS }),
    check: () => showsEscaped(`${assignmentPath}/settings`, 'instructor'),
  },
  {
    name: 'markup in the document type',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ documentType: XSS }),
    check: () => showsEscaped(`${assignmentPath}/settings`, 'instructor'),
  },
  {
    name: 'markup in the instructions (shown to students)',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ instructions: XSS }),
    check: () => showsEscaped(assignmentPath, 'student'),
  },
  {
    name: 'markup in the resubmission choice',
    status: 400,
    send: () => postSettings({ resubmission: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the results visibility',
    status: 400,
    send: () => postSettings({ resultsVisibleTo: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the gradebook column',
    status: 400,
    send: () => postSettings({ gradeColumn: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the file types',
    status: 400,
    send: () => postSettings({ allowedFileTypes: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in a number field',
    status: 400,
    send: () => postSettings({ maxFileMb: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the due date',
    status: 400,
    send: () => postSettings({ dueAt: XSS }),
    check: (answer) => {
      refusesEscaped(answer);
      assert.match(answer.body, /Enter the due date as a date and a time/);
    },
  },
  {
    name: 'a due date of 31 April',
    status: 400,
    send: () => postSettings({ dueAt: '2026-04-31T17:00' }),
    check: (answer) => assert.match(answer.body, /Enter the due date as a date and a time/),
  },
  {
    name: 'a due date at 24:30',
    status: 400,
    send: () => postSettings({ dueAt: '2026-12-01T24:30' }),
    check: (answer) => assert.match(answer.body, /Enter the due date as a date and a time/),
  },
  {
    name: 'SQL in the excluded phrases, kept as text',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ excludedPhrases: SQL }),
    check: () => storedSettings((settings) => assert.deepEqual(settings.excludedPhrases, [SQL])),
  },
  {
    name: 'SQL in the instructions, kept as text',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ instructions: SQL }),
    check: () => storedSettings((settings) => assert.equal(settings.instructions, SQL)),
  },
  {
    name: 'a NUL character in the instructions',
    status: 400,
    send: () => postSettings({ instructions: 'Read this\u0000 twice' }),
  },
  {
    name: 'sixteen excluded phrases',
    status: 400,
    send: () => postSettings({ excludedPhrases: Array.from({ length: 16 }, (_, i) => `phrase ${i}`).join('\n') }),
  },
  {
    name: 'instructions of 10,001 characters',
    status: 400,
    send: () => postSettings({ instructions: 'x'.repeat(10_001) }),
  },
  { name: 'a negative attempt limit', status: 400, send: () => postSettings({ maxAttempts: '-1' }) },
  { name: 'an infinite file size (1e309)', status: 400, send: () => postSettings({ maxFileMb: '1e309' }) },
  { name: 'a form of 100 KB', status: 413, send: () => postSettings({ instructions: 'x'.repeat(100_000) }) },
  {
    name: 'CSRF: settings without the session key',
    status: 401,
    send: () => postSettings({ ltik: null, language: 'Latin' }),
  },
  {
    name: "CSRF: settings with a student's session key",
    status: 403,
    send: () => postSettings({ ltik: ltiks.student, language: 'Latin' }),
  },
  {
    name: 'CSRF: settings sent from another site',
    status: 403,
    send: () => postSettings({ language: 'Latin' }, { 'sec-fetch-site': 'cross-site' }),
  },
  {
    name: 'CSRF: settings from a foreign Origin',
    status: 403,
    send: () => postSettings({ language: 'Latin' }, { origin: 'https://attacker.example' }),
  },
  {
    name: 'CSRF: a row action without the session key',
    status: 401,
    send: () =>
      post(`${assignmentPath}/submissions/00000000-0000-4000-8000-000000000000/delete`, new URLSearchParams()),
  },
  {
    name: 'CSRF: an admin form without the token',
    status: 401,
    send: () =>
      post(
        '/admin/accounts',
        new URLSearchParams({ name: 'x', baseUrl: 'https://x.example', username: 'u', password: 'p' }),
      ),
  },
  {
    name: 'CSRF: an admin form with the token, from another site',
    status: 403,
    send: () =>
      post(
        '/admin/accounts',
        new URLSearchParams({
          adminToken: ADMIN_TOKEN,
          name: 'x',
          baseUrl: 'https://x.example',
          username: 'u',
          password: 'p',
        }),
        { 'sec-fetch-site': 'cross-site' },
      ),
  },
  {
    name: 'markup in a service account name',
    status: 200,
    adds: { checker_account: 1 },
    send: () =>
      adminForm({
        path: '/admin/accounts',
        name: XSS,
        baseUrl: 'http://127.0.0.1:9',
        username: 'xss@example.edu',
        password: 'pw',
      }),
    check: shownEscaped,
  },
  {
    name: 'a javascript: service address',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/accounts',
        name: 'js',
        baseUrl: 'javascript:alert(1)',
        username: 'js@example.edu',
        password: 'pw',
      }),
    check: refusesEscaped,
  },
  {
    name: 'markup in a registration name',
    status: 200,
    adds: { platform: 1, platformKeys: 1 },
    send: () =>
      adminForm({
        path: '/admin/registrations',
        name: XSS,
        issuer: 'https://lms.xss.example',
        clientId: 'xss',
        deploymentId: 'd1',
        authUrl: 'https://lms.xss.example/auth',
        tokenUrl: 'https://lms.xss.example/token',
        jwksUrl: 'https://lms.xss.example/jwks',
      }),
    check: shownEscaped,
  },
  {
    name: 'a javascript: registration URL',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/registrations',
        name: 'js',
        issuer: 'https://lms.js.example',
        clientId: 'js',
        deploymentId: 'd1',
        authUrl: 'javascript:alert(1)',
        tokenUrl: 'https://lms.js.example/token',
        jwksUrl: 'https://lms.js.example/jwks',
      }),
  },
  {
    name: 'markup in a deep-linked assignment title',
    status: 200,
    adds: { assignment: 1 },
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: XSS })),
    check: shownEscaped,
  },
  {
    name: 'a NUL character in a deep-linked assignment title',
    status: 400,
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: 'Essay\u0000 2' })),
  },
  {
    name: 'a NUL character in a service account name',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/accounts',
        name: 'Account\u0000',
        baseUrl: 'http://127.0.0.1:9',
        username: 'nul@example.edu',
        password: 'pw',
      }),
  },
  {
    name: 'a NUL character in a registration name',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/registrations',
        name: 'LMS\u0000',
        issuer: 'https://lms.nul.example',
        clientId: 'nul',
        deploymentId: 'd1',
        authUrl: 'https://lms.nul.example/auth',
        tokenUrl: 'https://lms.nul.example/token',
        jwksUrl: 'https://lms.nul.example/jwks',
      }),
  },
  {
    name: "a NUL character in a student's name from the LMS",
    status: 401,
    send: () =>
      launch(lms.platform, {
        userId: 'student-3',
        resourceLinkId: 'essay-1',
        replaceIdToken: (original) => lms.platform.sign({ ...payloadOf(original), name: 'Lee\u0000' }),
      }).then((result) => ({ status: result.status, body: result.body })),
  },
  {
    name: 'an empty deep-linked assignment title',
    status: 400,
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: '   ' })),
  },
  {
    name: 'a deep-linked assignment title of 201 characters',
    status: 400,
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: 't'.repeat(201) })),
  },
  {
    name: "markup in a student's name from the LMS",
    status: 200,
    adds: { lti_user: 1, course_member: 1, session: 1 },
    send: () =>
      launch(lms.platform, {
        userId: 'student-2',
        resourceLinkId: 'essay-1',
        replaceIdToken: (original) => lms.platform.sign({ ...payloadOf(original), name: XSS }),
      }).then((result) => ({ status: result.status, body: result.body })),
    check: shownEscaped,
  },
]);

// ---- query strings and paths ----

async function get(path: string, who: keyof typeof ltiks | 'admin'): Promise<Answer> {
  const url = new URL(path, tool.url);
  if (who !== 'admin' && !url.searchParams.has('ltik')) url.searchParams.set('ltik', ltiks[who]);
  return answerOf(await fetch(url, { redirect: 'manual', headers: who === 'admin' ? ADMIN : {} }));
}
const dashboard = (query: string) => get(`${assignmentPath}/dashboard?${query}`, 'instructor');
const csv = (answer: Answer) => assert.match(answer.body, /^name,email,status,similarity/);

catalogue('query', [
  { name: 'dashboard sorted by -1', status: 200, send: () => dashboard('sort=-1') },
  {
    name: 'dashboard sorted by a 25-digit number',
    status: 200,
    send: () => dashboard('sort=9999999999999999999999999'),
  },
  {
    name: 'dashboard sorted by SQL',
    status: 200,
    send: () => dashboard(`sort=${encodeURIComponent("name'; DROP TABLE submission; --")}`),
  },
  { name: 'dashboard sorted twice', status: 200, send: () => dashboard('sort=name&sort=similarity&dir=desc&dir=asc') },
  {
    name: 'dashboard with markup in the state filter',
    status: 200,
    send: () => dashboard(`dir=sideways&state=${encodeURIComponent(XSS)}`),
    check: refusesEscaped,
  },
  {
    name: 'dashboard with a negative page and an infinite page size',
    status: 200,
    send: () => dashboard('band=purple&page=-5&pageSize=1e309&limit=NaN'),
  },
  {
    name: 'dashboard with markup in the notice',
    status: 200,
    send: () => dashboard(`notice=${encodeURIComponent(XSS)}&tone=error`),
    check: shownEscaped,
  },
  {
    name: 'dashboard with the session key twice',
    status: 401,
    send: () => get(`${assignmentPath}/dashboard?ltik=${ltiks.instructor}&ltik=${ltiks.instructor}`, 'instructor'),
  },
  { name: 'a query string of 20 KB', status: 431, send: () => dashboard(`sort=${'x'.repeat(20_000)}`) },
  {
    name: 'CSV with a negative sort and SQL in the filter',
    status: 200,
    send: () => get(`${assignmentPath}/export.csv?sort=-1&state=${encodeURIComponent("' OR 1=1 --")}`, 'instructor'),
    check: csv,
  },
  {
    name: 'CSV with markup in the band',
    status: 200,
    send: () => get(`${assignmentPath}/export.csv?band=${encodeURIComponent(XSS)}&limit=-1`, 'instructor'),
    check: csv,
  },
  {
    name: 'admin page with a negative page and an infinite size',
    status: 200,
    send: () => get('/admin?page=-1&size=1e309&sort=%00', 'admin'),
  },
  {
    name: "a student's status with a negative limit",
    status: 200,
    send: () => get(`${assignmentPath}/my-submissions?limit=-1&offset=NaN`, 'student'),
    check: (answer) => assert.ok(Array.isArray((JSON.parse(answer.body) as { submissions: unknown }).submissions)),
  },
  {
    name: 'the history of a submission id that is not one',
    status: 404,
    send: () => get(`${assignmentPath}/submissions/1%20OR%201=1/history`, 'instructor'),
  },
  {
    name: 'the receipt of a submission id that is not one',
    status: 404,
    send: () => get(`${assignmentPath}/submissions/..%2F..%2Fetc/receipt`, 'student'),
  },
  {
    name: 'a report of an unknown kind',
    status: 404,
    send: () => get('/reports/00000000-0000-4000-8000-000000000000/evil', 'student'),
  },
  {
    name: 'a report of a submission id that is not one',
    status: 404,
    send: () => get('/reports/x/similarity', 'student'),
  },
  {
    name: 'a report link with a malformed signature',
    status: 404,
    send: () => get('/reports/00000000-0000-4000-8000-000000000000/similarity/file?expires=-1&signature=x', 'admin'),
  },
  {
    name: 'a report link with a wrong signature',
    status: 403,
    send: () =>
      get(
        `/reports/00000000-0000-4000-8000-000000000000/similarity/file?expires=9999999999&signature=${'A'.repeat(43)}`,
        'admin',
      ),
  },
  {
    name: 'a path with broken percent-encoding',
    status: 404,
    send: () => get(`${assignmentPath}/%E0%A4%A/dashboard`, 'instructor'),
  },
]);
