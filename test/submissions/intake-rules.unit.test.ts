// What a student's upload is judged by before anything is stored: the file's real type, its label, and the
// assignment's attempt and due-date rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { assignmentSettings } from '../../src/assignments/settings.js';
import { fileLabel } from '../../src/submissions/file-label.js';
import { detectFileType } from '../../src/submissions/file-type.js';
import { canSubmit, type Submission } from '../../src/submissions/store.js';
import { inEnglish } from '../../src/i18n/index.js';

const docx = Buffer.from(
  zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8('<w:document/>') }, { level: 0 }),
);
const odt = Buffer.from(
  zipSync(
    { mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': strToU8('<office/>') },
    { level: 0 },
  ),
);
const plainZip = Buffer.from(zipSync({ 'notes.txt': strToU8('hello') }, { level: 0 }));

describe('the real type of a file comes from its first bytes', () => {
  const cases: Array<[string, Buffer, string | null]> = [
    ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'), 'pdf'],
    ['a DOCX', docx, 'docx'],
    ['an ODT', odt, 'odt'],
    ['a Word 97 file', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]), 'doc'],
    ['an RTF', Buffer.from('{\\rtf1\\ansi Hello}'), 'rtf'],
    ['UTF-8 text with accents', Buffer.from('Résumé of the naïve approach — 100 % plain text.\n'), 'txt'],
    ['an HTML page', Buffer.from('\uFEFF  <!DOCTYPE html><html><body>Essay</body></html>'), 'html'],
    [
      'a Windows executable named .pdf',
      Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90), Buffer.from([0, 0, 0])]),
      null,
    ],
    ['an ELF binary', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]), null],
    ['a ZIP that is not a document', plainZip, null],
    ['a PNG image', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), null],
    ['nothing at all', Buffer.alloc(0), null],
  ];
  for (const [name, head, expected] of cases) {
    test(`${name} → ${expected ?? 'refused'}`, () => assert.equal(detectFileType(head), expected));
  }
});

describe('the file name is kept only as a clean label', () => {
  test('path parts, control characters and zero-width characters are removed; the real type sets the extension', () => {
    assert.equal(fileLabel('../../etc/passwd', 'txt'), 'passwd.txt');
    assert.equal(fileLabel('C:\\Users\\ana\\Essay final.docx', 'docx'), 'Essay final.docx');
    assert.equal(fileLabel('essay\u0000\u0007\u200b.pdf', 'pdf'), 'essay.pdf');
    assert.equal(fileLabel('report.pdf', 'docx'), 'report.docx');
    assert.equal(fileLabel('...', 'pdf'), 'paper.pdf');
    assert.equal(fileLabel(undefined, 'odt'), 'paper.odt');
  });

  test('a 10,000-character name becomes a label of at most 120 characters', () => {
    const label = fileLabel(`${'a'.repeat(10_000)}.pdf`, 'pdf');
    assert.ok(label.length <= 120, `length ${label.length}`);
    assert.ok(label.endsWith('.pdf'));
  });
});

describe('attempts and due dates', () => {
  const settings = (values: object) => assignmentSettings.parse(values);
  const previous = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ attempt: i + 1, state: 'scored' }) as Submission);
  const now = new Date('2026-11-22T12:00:00Z');

  test('the first submission is always taken, and flagged late after the due date', () => {
    assert.deepEqual(canSubmit(settings({ resubmission: 'none', dueAt: '2026-11-21T12:00:00Z' }), [], now), {
      allowed: true,
      late: true,
    });
    assert.deepEqual(canSubmit(settings({ dueAt: '2026-11-23T12:00:00Z' }), [], now), { allowed: true, late: false });
  });

  test('one submission only: a second is refused with the reason', () => {
    const decision = canSubmit(settings({ resubmission: 'none' }), previous(1), now);
    assert.equal(decision.allowed, false);
    assert.ok(!decision.allowed);
    assert.match(inEnglish(decision.reason), /one submission/);
  });

  test('until the due date: resubmissions close when it passes', () => {
    assert.equal(
      canSubmit(
        settings({ resubmission: 'until-due', maxAttempts: 3, dueAt: '2026-11-23T00:00:00Z' }),
        previous(1),
        now,
      ).allowed,
      true,
    );
    const closed = canSubmit(
      settings({ resubmission: 'until-due', maxAttempts: 3, dueAt: '2026-11-22T00:00:00Z' }),
      previous(1),
      now,
    );
    assert.ok(!closed.allowed);
    assert.equal(closed.why, 'closed');
    assert.equal(inEnglish(closed.reason), 'The due date has passed: resubmissions are closed.');
  });

  test('any time: up to the attempt limit, late ones flagged', () => {
    assert.deepEqual(
      canSubmit(
        settings({ resubmission: 'any-time', maxAttempts: 2, dueAt: '2026-11-01T00:00:00Z' }),
        previous(1),
        now,
      ),
      { allowed: true, late: true },
    );
    const used = canSubmit(settings({ resubmission: 'any-time', maxAttempts: 2 }), previous(2), now);
    assert.ok(!used.allowed);
    assert.equal(used.why, 'attempts-used');
    assert.equal(inEnglish(used.reason), 'You have used all 2 attempts of this assignment.');
  });
});
