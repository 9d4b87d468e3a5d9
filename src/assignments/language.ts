// The language the tool writes into an assignment's LMS in (a result's comment in the gradebook, which the student
// and the teacher read there): its instructors' language, as their launches state it (launch_presentation.locale,
// LTI core 5.4.2), among the tool's languages (messages/language.ts). A grade job has no launch, so the assignment
// keeps it: the last instructor launch that states a locale sets it, and writes only when it changes. An assignment
// no instructor opened with a locale is written in English.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Launch } from '../lti/launch.js';
import { LANGUAGES, chooseLanguage, type Language } from '../i18n/index.js';

/** The stored language, read as one of the tool's (a language it no longer has reads as English). */
export function lmsLanguage(stored: string | null): Language {
  return LANGUAGES.find((language) => language === stored) ?? 'en';
}

/** Keeps the language of an instructor's launch with its assignment, when the launch states one and it changed. */
export async function rememberLanguage(
  db: Kysely<DatabaseSchema>,
  assignment: { id: string; lmsLanguage: string | null },
  launch: Pick<Launch, 'audience' | 'locale'>,
): Promise<void> {
  if (launch.audience !== 'instructor' || launch.locale === null) return;
  const language = chooseLanguage([launch.locale]);
  if (language === assignment.lmsLanguage) return;
  await db
    .updateTable('assignment')
    .set({ lms_language: language, updated_at: new Date() })
    .where('id', '=', assignment.id)
    .execute();
}
