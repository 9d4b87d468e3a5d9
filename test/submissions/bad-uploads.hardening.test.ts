// The bad-input catalogue's uploads (test/support/bad-inputs.ts): empty, too large, a lying Content-Length, images
// and executables under document names, a zip bomb as .docx, paths, control characters and long names, broken
// multipart, each with the answer it must get, no file left half-received and the tool still up.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { essay } from '../support/hardening.js';
import {
  type Answer,
  assignmentPath,
  badInputTool,
  base64url,
  catalogue,
  filePart,
  ltiks,
  multipart,
  showsEscaped,
  SQL,
  tool,
  upload,
  uploadFile,
  uploadParts,
} from '../support/bad-inputs.js';

badInputTool();

// ---- uploads ----

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
