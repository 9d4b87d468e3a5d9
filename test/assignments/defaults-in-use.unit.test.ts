// The defaults an instructor is told about (an assignment a student opened first) are said in the instructor's
// language, every word of them through the catalogue: the file types, the attempts, what is left out and compared,
// who sees the results.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOT_TOLD, defaultsInUse } from '../../src/assignments/defaults-in-use.js';
import { defaultSettings } from '../../src/assignments/settings.js';
import type { Assignment } from '../../src/assignments/store.js';
import { wordsFor } from '../../src/i18n/index.js';

const unreviewed = (changes: Partial<Assignment['settings']> = {}) =>
  ({ settingsUnreviewed: true, settings: { ...defaultSettings(), ...changes } }) as Assignment;

test('a German instructor reads the defaults in German, an English one in English', () => {
  const settings: Partial<Assignment['settings']> = {
    allowedFileTypes: ['pdf', 'txt'],
    resubmission: 'until-due',
    maxAttempts: 3,
    dueAt: null,
    excludeReferences: true,
    excludeQuotes: false,
    excludeSmallSources: false,
  };
  const lines = defaultsInUse(unreviewed(settings))!;
  const de = lines.map((line) => wordsFor('de').say(line));
  assert.equal(de[0], `Dateitypen: PDF, reiner Text (TXT); bis ${defaultSettings().maxFileMb} MB je Datei.`);
  assert.equal(de[1], 'Versuche: 3 Versuche bis zum Abgabetermin; kein Abgabetermin.');
  assert.match(de[2]!, /^Nicht gewertet: Literaturangaben\. Verglichen mit: .+\. Grammatikprüfung (an|aus)\.$/);
  assert.match(de[3]!, /^Ergebnisse: .+; der KI-Wert (wird Studierenden gezeigt|bleibt Studierenden verborgen)\.$/);
  const en = lines.map((line) => wordsFor('en').say(line));
  assert.equal(en[0], `File types: PDF, plain text (TXT); up to ${defaultSettings().maxFileMb} MB each.`);
  assert.equal(en[1], 'Attempts: 3 attempts until the due date; no due date.');
  assert.match(en[2]!, /^Left out of the score: references\. Compared with: .+\. Grammar check (on|off)\.$/);
  for (const line of de) assert.doesNotMatch(line, /\b(attempts?|File types|Left out|students see|nothing)\b/);
});

test('an assignment an instructor has saved tells no defaults', () => {
  assert.equal(defaultsInUse({ ...unreviewed(), settingsUnreviewed: false }), null);
});

test("a refused file type is named in the reader's words", () => {
  const refusal = {
    key: 'upload.wrongType',
    params: { type: { key: 'fileType.txt' }, allowed: [{ key: 'fileType.pdf' }, { key: 'fileType.odt' }] },
  } as const;
  assert.equal(
    wordsFor('de').say(refusal),
    'Diese Datei ist eine reiner Text (TXT)-Datei. Diese Aufgabe nimmt an: PDF, OpenDocument-Text (ODT).',
  );
  assert.equal(
    wordsFor('en').say(refusal),
    'This file is a plain text (TXT) file. This assignment takes: PDF, OpenDocument text (ODT).',
  );
});

/**
 * Each setting the notice names, changed from its default: the type checker asks for a line here for every setting
 * that NOT_TOLD does not give a reason for, and the test holds the notice changed by it.
 */
const CHANGED: Record<Exclude<keyof Assignment['settings'], keyof typeof NOT_TOLD>, Partial<Assignment['settings']>> = {
  excludeReferences: { excludeReferences: false },
  excludeQuotes: { excludeQuotes: false },
  excludeSmallSources: { excludeSmallSources: true },
  excludeThresholdWords: { excludeSmallSources: true, excludeThresholdWords: 25 },
  databases: { databases: { studentPapers: false, publications: true, internet: true, institutionRepository: true } },
  grammarCheck: { grammarCheck: true },
  allowedFileTypes: { allowedFileTypes: ['pdf'] },
  maxFileMb: { maxFileMb: 5 },
  resubmission: { resubmission: 'none' },
  maxAttempts: { maxAttempts: 7 },
  dueAt: { dueAt: '2026-12-24T12:00:00.000Z' },
  resultsVisibleTo: { resultsVisibleTo: 'instructors' },
  showAiScoreToStudents: { showAiScoreToStudents: true },
};

test('the notice names every setting but those NOT_TOLD gives a reason for: changing one changes what it says', () => {
  const told = (changes?: Partial<Assignment['settings']>) =>
    defaultsInUse(unreviewed(changes))!.map((line) => wordsFor('en').say(line));
  const byDefault = told();
  for (const [setting, changes] of Object.entries(CHANGED)) {
    if (setting === 'excludeThresholdWords')
      assert.notDeepEqual(told(changes), told({ excludeSmallSources: true }), setting);
    else assert.notDeepEqual(told(changes), byDefault, setting);
  }
});
