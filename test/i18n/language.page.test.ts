// The language of the tool's pages: the launch's locale (launch_presentation.locale) chooses it, exactly or by its
// base language, English otherwise; <html lang> says it; dates and numbers are written the language's way. Pages
// outside a launch follow the browser's Accept-Language. The catalogue itself: no translation names a key or a
// placeholder English does not have, and every key a view asks for exists.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { en } from '../../src/i18n/en.js';
import {
  CATALOGUES,
  LANGUAGES,
  acceptedLanguages,
  chooseLanguage,
  chooseLocale,
  placeholdersOf,
  wordsFor,
  type Message,
} from '../../src/i18n/index.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { payloadOf } from '../support/id-token.js';
import { englishFragments, englishIn } from '../support/english-words.js';
import { pageText } from '../support/page-text.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const PRESENTATION = 'https://purl.imsglobal.org/spec/lti/claim/launch_presentation';

describe('the catalogue', () => {
  // Every language but the reference, so that a language added to LANGUAGES is held to the same rules as German.
  const translations = LANGUAGES.filter((language) => language !== 'en').map(
    (language) => [language, CATALOGUES[language] as Record<string, Message>] as const,
  );

  test('every message of every language is one English has, with no placeholder English lacks and the same kind (plain or plural)', () => {
    assert.ok(translations.length > 0);
    const english = en as Record<string, Message>;
    for (const [language, catalogue] of translations)
      for (const [key, message] of Object.entries(catalogue)) {
        assert.ok(key in english, `${language}: "${key}" is not an English key`);
        assert.equal(
          typeof message,
          typeof english[key],
          `${language}: "${key}" is plain in one language and plural in the other`,
        );
        for (const name of placeholdersOf(message)) {
          assert.ok(
            placeholdersOf(english[key]!).includes(name) || name === 'count',
            `${language}: "${key}" names {${name}}, which English does not`,
          );
        }
      }
  });

  test('every key the views ask for is in the English catalogue', () => {
    const views = new URL('../../views/', import.meta.url);
    const asked = readdirSync(views)
      .filter((name) => name.endsWith('.eta'))
      .flatMap((name) =>
        [...readFileSync(new URL(name, views), 'utf8').matchAll(/\bt\('([\w.-]+)'/g)].map((match) => ({
          name,
          key: match[1]!,
        })),
      );
    assert.ok(asked.length > 100, `only ${asked.length} words found in the views`);
    // A key built from a prefix ("band." + the row's band) needs some key under that prefix.
    for (const { name, key } of asked)
      assert.ok(
        key.endsWith('.') ? Object.keys(en).some((known) => known.startsWith(key)) : key in en,
        `${name} asks for "${key}"`,
      );
  });

  test('every language is complete: each English message has one in every language, so no page falls back to English', () => {
    for (const [language, catalogue] of translations) {
      const missing = Object.keys(en).filter((key) => !(key in catalogue));
      assert.deepEqual(missing, [], `${missing.length} messages have no ${language}`);
    }
  });

  test('plural forms follow the language', () => {
    const german = wordsFor('de');
    assert.equal(
      german.t('student.refused.attemptsUsed', { count: 3 }),
      'Sie haben alle 3 Versuche dieser Aufgabe genutzt.',
    );
    assert.equal(wordsFor('en').t('dashboard.notice.scoresQueued', { count: 1 }), '1 score queued for the gradebook.');
    assert.equal(
      wordsFor('en').t('dashboard.notice.scoresQueued', { count: 1200 }),
      '1,200 scores queued for the gradebook.',
    );
    assert.equal(german.fileSize(1536), '2 KB');
    assert.equal(german.fileSize(60 * 1024 * 1024), '60,0 MB');
    assert.equal(german.fileSize(1), '1 Byte');
  });

  test('the language: exact, then by base language, then English; a malformed tag counts for nothing', () => {
    assert.equal(chooseLanguage(['de-DE']), 'de');
    assert.equal(chooseLanguage(['de_AT']), 'de');
    assert.equal(chooseLanguage(['DE']), 'de');
    assert.equal(chooseLanguage(['fr-FR']), 'en');
    assert.equal(chooseLanguage(['not a tag!', 'de']), 'de');
    assert.equal(chooseLanguage([null, undefined, '']), 'en');
    assert.deepEqual(acceptedLanguages('fr;q=0.9, de-CH;q=0.95, en;q=0.1, *;q=0.5, es;q=0'), ['de-CH', 'fr', 'en']);
    assert.deepEqual(acceptedLanguages(42), []);
  });

  test("the locale: the language with the first region the reader's tags give it, else the bare language", () => {
    assert.equal(chooseLocale('en', ['en', 'en-GB']), 'en-GB', "Moodle's bare en, a British browser");
    assert.equal(chooseLocale('en', ['en_us', 'en-GB']), 'en-US', "the launch's own region first");
    assert.equal(chooseLocale('de', ['de', 'en-GB', 'de-AT']), 'de-AT');
    assert.equal(chooseLocale('de', ['de', 'en-GB']), 'de', 'a British browser gives a German reader no region');
    assert.equal(chooseLocale('en', ['en-GB-u-ca-buddhist-nu-thai']), 'en-GB', 'extensions are not kept');
    assert.equal(chooseLocale('en', ['fr-FR', 'not a tag!', null]), 'en');
    assert.equal(wordsFor('en-GB').minute('2026-11-25T06:35:00Z'), '25 Nov 2026, 06:35 UTC');
    assert.equal(wordsFor('en-US').minute('2026-11-25T06:35:00Z'), 'Nov 25, 2026, 6:35 AM UTC');
    assert.equal(wordsFor('de-DE').minute('2026-11-25T06:35:00Z'), '25.11.2026, 06:35 UTC');
    assert.equal(wordsFor('en-GB').language, 'en');
  });
});

describe("pages in the launch's language", () => {
  let tool: TestTool;
  let course: TestCourse;
  let submissionId: string;

  /** A student's launch with the given launch_presentation.locale (undefined: the claim without one). */
  const launchWithLocale = (userId: string, locale: unknown) =>
    launch(course.lms.platform, {
      userId,
      resourceLinkId: 'essay',
      replaceIdToken: async (idToken) => {
        const payload = payloadOf(idToken);
        payload[PRESENTATION] = { ...(payload[PRESENTATION] as object), locale };
        return course.lms.platform.sign(payload);
      },
    });

  before(async () => {
    tool = await startTestTool();
    course = await openCourse(tool, { clientId: 'language-client', title: 'Essay on rivers' });
    // A due date far ahead and three attempts, as an instructor would have saved them.
    await tool.tool.database.pool.query(
      `UPDATE assignment SET settings = settings || '{"dueAt": "2099-12-01T17:00:00.000Z", "resubmission": "until-due", "maxAttempts": 3}'::jsonb`,
    );
    submissionId = await course.submit(
      'student-1',
      'Rivers carve valleys over long ages, and their floods renew the soil of the plains.',
    );
  });
  after(async () => {
    await course?.lms.close();
    await tool?.stop();
  });

  test('"de-DE": the student page in German, lang="de-DE", the due date and the receipt time written the German way', async () => {
    const page = await launchWithLocale('student-1', 'de-DE');
    assert.equal(page.status, 200, pageText(page.body));
    assert.match(page.body, /<html lang="de-DE">/);
    const text = pageText(page.body);
    for (const words of [
      'Angemeldet als',
      'Ihr Ergebnis',
      'Versuch 1 von 3',
      'Neuen Versuch einreichen',
      'Datei auswählen oder hierher ziehen',
      'Ihre Abgaben',
      'Quittung',
    ]) {
      assert.ok(text.includes(words), `"${words}" is not on the page: ${text}`);
    }
    assert.match(text, /Abgabe bis: 01\.12\.2099, 17:00 UTC/);
    // After the first attempt the file chooser says what to submit (the list of limits is for the first one).
    assert.match(text, /PDF, Word \(DOCX\), .*reiner Text \(TXT\); bis zu 100 MB\./);
    // The attempt's time, day first: "25.11.2026, 06:35 UTC".
    assert.match(text, /student-1\.txt (?:\p{L}+: )?\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC/u);
    assert.doesNotMatch(
      text,
      /Signed in as|What to submit|Your submissions|Your result|Attempt 1 of|Submit a new attempt|View report/,
    );
    // The upload page's script takes its words from the page.
    assert.match(page.body, /data-words="[^"]*Wählen Sie zuerst eine Datei aus\./);

    const ltik = encodeURIComponent(page.ltik!);
    const status = (await (
      await fetch(`${tool.url}${course.path}/my-submissions?ltik=${ltik}`, { headers: { accept: 'application/json' } })
    ).json()) as { submissions: Array<{ stateText: string }>; html: string; card: string };
    assert.ok(
      ['Eingegangen', 'Zur Prüfung gesendet', 'Wird geprüft', 'Geprüft'].includes(status.submissions[0]!.stateText),
      status.submissions[0]!.stateText,
    );
    assert.match(pageText(status.html), /Versuch Datei Eingegangen Status Ähnlichkeit Berichte Quittung/);
    assert.match(
      pageText(status.card),
      /^\s*Versuch 1 von 3 · Abgabe bis: 01\.12\.2099, 17:00 UTC (Eingegangen|Zur Prüfung gesendet|Wird geprüft|Geprüft)/,
    );

    const receipt = await (
      await fetch(`${tool.url}${course.path}/submissions/${submissionId}/receipt?ltik=${ltik}`)
    ).text();
    assert.match(receipt, /^Abgabequittung\nAufgabe: +Essay on rivers\n/);
    assert.match(receipt, /\nGröße: +\d+ Bytes\n/);
  });

  test('"de-DE": the instructor\'s dashboard in German, without an English word of the catalogue', async () => {
    const page = await launchWithLocale('instructor-1', 'de-DE');
    assert.equal(page.status, 200, pageText(page.body));
    const text = pageText(page.body);
    for (const words of [
      'von',
      'abgegeben',
      'Abgaben',
      'Prüfeinstellungen',
      'Ähnlichkeit im Kurs',
      'Geprüft',
      'Aktionen',
      'Als CSV exportieren',
    ]) {
      assert.ok(text.includes(words), `"${words}" is not on the page: ${text}`);
    }
    assert.match(text, /\d+ von \d+ abgegeben · \d+ fehlen · \d+ bei 75 % oder mehr/);
    // Every English text of the dashboard's part of the catalogue that German words differently stays off the page.
    const english = englishFragments((key) => /^(dashboard|nav|band|report\.instructor)\./.test(key));
    assert.ok(english.length > 40, `only ${english.length} dashboard words`);
    assert.deepEqual(englishIn(text, english), [], `English on the German dashboard: ${text}`);
  });

  test('"de-AT" reads German by its base language; a refusal in the session is German too', async () => {
    const page = await launchWithLocale('student-2', 'de-AT');
    assert.match(page.body, /<html lang="de-AT">/);
    const missing = await fetch(
      `${tool.url}/assignments/00000000-0000-4000-8000-000000000000?ltik=${encodeURIComponent(page.ltik!)}`,
    );
    assert.equal(missing.status, 404);
    assert.match(pageText(await missing.text()), /Nicht gefunden Diese Aufgabe gibt es nicht\./);
  });

  test("the domain's refusals reach a German student in German: an upload of the wrong type, a report not shown", async () => {
    const page = await launchWithLocale('student-3', 'de-DE');
    const form = new FormData();
    form.append(
      'file',
      new Blob([Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 1)])]),
      'photo.png',
    );
    const refused = await fetch(`${tool.url}${course.path}/submissions`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${page.ltik}`, accept: 'application/json' },
    });
    assert.equal(refused.status, 422);
    assert.match(
      ((await refused.json()) as { error: string }).error,
      /^Diese Datei ist kein Dokumenttyp, den das Werkzeug kennt\. Diese Aufgabe nimmt an: PDF/,
    );
    // Another student's report: refused in German as a page, in English in the log's words (the error's message).
    const report = await fetch(
      `${tool.url}/reports/${submissionId}/similarity/view?ltik=${encodeURIComponent(page.ltik!)}`,
    );
    assert.equal(report.status, 403);
    assert.match(pageText(await report.text()), /Dieser Bericht gehört zur Arbeit einer anderen Person\./);
  });

  test('a locale the tool has no language for, or a malformed one, shows English; the launch still works', async () => {
    for (const locale of ['fr-FR', 'zz-!!', 42]) {
      const page = await launchWithLocale('student-3', locale);
      assert.equal(page.status, 200, `${String(locale)}: ${pageText(page.body).slice(0, 200)}`);
      assert.match(page.body, /<html lang="en">/, String(locale));
      const text = pageText(page.body);
      assert.match(text, /Signed in as .* What to submit/);
      assert.doesNotMatch(text, /Angemeldet/);
      assert.match(text, /Due: Dec 1, 2099, 5:00 PM UTC/);
    }
  });

  test('"en-GB" reads British dates and "en-US" American ones, each lang saying so; a bare "en" with a British browser reads British', async () => {
    const british = await launchWithLocale('student-2', 'en-GB');
    assert.match(british.body, /<html lang="en-GB">/);
    assert.match(pageText(british.body), /Due: 1 Dec 2099, 17:00 UTC/);
    const american = await launchWithLocale('student-2', 'en-US');
    assert.match(american.body, /<html lang="en-US">/);
    assert.match(pageText(american.body), /Due: Dec 1, 2099, 5:00 PM UTC/);
    const outside = await fetch(`${tool.url}${course.path}`, { headers: { 'accept-language': 'en-GB,en;q=0.8' } });
    assert.match(await outside.text(), /<html lang="en-GB">/);
  });

  test('a page outside a launch follows Accept-Language', async () => {
    const german = await fetch(`${tool.url}${course.path}`, { headers: { 'accept-language': 'de-CH, en;q=0.5' } });
    assert.equal(german.status, 401);
    const text = await german.text();
    assert.match(text, /<html lang="de-CH">/);
    assert.match(pageText(text), /Bitte öffnen Sie die Aufgabe aus Ihrem Kurs/);
    const english = await fetch(`${tool.url}${course.path}`, { headers: { 'accept-language': 'fr' } });
    assert.match(pageText(await english.text()), /Please open the assignment from your course/);
  });
});
