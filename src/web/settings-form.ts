// The settings form as the instructor fills it in: its fields read into the assignment's settings schema (which
// keeps the limits), or a sentence saying what to correct, with what was entered for the form to show again.
import type { Words } from '../i18n/index.js';
import { fromFieldValue, isTimeZone } from '../i18n/format.js';
import { z } from 'zod';
import {
  DOCUMENT_TYPES,
  MAX_EXCLUDED_PHRASES,
  SERVICE_MAX_FILE_MB,
  assignmentSettings,
  defaultSettings,
  type AssignmentSettings,
} from '../assignments/settings.js';

const checkbox = z.preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean());
/** An empty number field falls back to the setting's default. */
const numberField = z.preprocess(
  (value) => (value === '' || value === undefined ? undefined : Number(value)),
  z.number().optional(),
);

/**
 * The settings form's fields, read into the settings schema (which keeps the limits). Each is a named input of the
 * settings page (views/instructor-settings.eta, views/check-settings.eta), which a rules test holds.
 */
const settingsForm = z.object({
  excludeReferences: checkbox,
  excludeQuotes: checkbox,
  excludeSmallSources: checkbox,
  excludeThresholdWords: numberField,
  excludedPhrases: z.preprocess(
    (value) =>
      String(value ?? '')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    z.array(z.string()),
  ),
  studentPapers: checkbox,
  publications: checkbox,
  internet: checkbox,
  institutionRepository: checkbox,
  grammarCheck: checkbox,
  allowedFileTypes: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.string()),
  ),
  maxFileMb: numberField,
  resubmission: z.string(),
  maxAttempts: numberField,
  // A form of an earlier page has no such field: the default (replaced) applies, as for an assignment never saved.
  earlierAttempts: z.string().default('replace'),
  // Empty: no due date. Anything else must be the date field's "YYYY-MM-DDTHH:MM[:SS]", a time on the clocks of
  // dueAtZone, or the form is refused: a mistyped date silently read as "no due date" would reopen a closed assignment.
  dueAt: z.preprocess((value) => (value === undefined || value === '' ? null : value), z.string().nullable()),
  // The reader's time zone, which the page's script fills in from the browser; without the script, UTC (the page says so).
  dueAtZone: z.preprocess(
    (value) => (value === undefined || value === '' ? 'UTC' : value),
    z.string().max(64).refine(isTimeZone, 'not a time zone'),
  ),
  resultsVisibleTo: z.string(),
  showAiScoreToStudents: checkbox,
  gradeColumn: z.string().default('comment'),
  bandYellow: numberField,
  bandOrange: numberField,
  bandRed: numberField,
  language: z.string().default(''),
  documentType: z.string().default(''),
  instructions: z.string().default(''),
});

/** The names of the form's fields, as the page's inputs are named. */
export const SETTINGS_FORM_FIELDS = Object.keys(settingsForm.shape);

/** The settings that tune the checking service's comparison: the page keeps them under "Advanced". */
export const ADVANCED_FIELDS: ReadonlySet<string> = new Set<keyof AssignmentSettings>([
  'excludeReferences',
  'excludeQuotes',
  'excludeSmallSources',
  'excludeThresholdWords',
  'excludedPhrases',
  'databases',
  'grammarCheck',
  'language',
  'documentType',
]);

/** What the instructor entered, shaped like the settings for the form to show again; an empty field stays empty. */
function asEntered(
  entered: Record<string, unknown> & { similarityBands: Array<number | undefined> },
): AssignmentSettings {
  const given = Object.fromEntries(Object.entries(entered).filter(([, value]) => value !== undefined));
  return {
    ...defaultSettings(),
    ...given,
    similarityBands: entered.similarityBands.map((band) => band ?? ''),
  } as unknown as AssignmentSettings;
}

/**
 * The settings from the form, or a sentence saying what to correct, with what was entered (shaped like the
 * settings, possibly out of bounds) so that the form shows it again.
 */
export function readSettings(
  body: unknown,
  words: Words,
): { settings: AssignmentSettings } | { error: string; field: string; entered?: AssignmentSettings } {
  const form = settingsForm.safeParse(body ?? {});
  const { t } = words;
  if (!form.success) {
    const field = form.error.issues[0]!.path.join('.');
    return { error: t('settings.error.unreadable', { field }), field };
  }
  const f = form.data;
  const dueAt = f.dueAt === null ? null : fromFieldValue(f.dueAt, f.dueAtZone);
  // Every setting, read from the form: one left out would be saved as its default whatever the instructor chose.
  const entered = {
    excludeReferences: f.excludeReferences,
    excludeQuotes: f.excludeQuotes,
    excludeSmallSources: f.excludeSmallSources,
    excludeThresholdWords: f.excludeThresholdWords,
    excludedPhrases: f.excludedPhrases,
    databases: {
      studentPapers: f.studentPapers,
      publications: f.publications,
      internet: f.internet,
      institutionRepository: f.institutionRepository,
    },
    grammarCheck: f.grammarCheck,
    allowedFileTypes: f.allowedFileTypes,
    maxFileMb: f.maxFileMb,
    resubmission: f.resubmission,
    maxAttempts: f.maxAttempts,
    earlierAttempts: f.earlierAttempts,
    dueAt: dueAt ?? null,
    resultsVisibleTo: f.resultsVisibleTo,
    showAiScoreToStudents: f.showAiScoreToStudents,
    gradeColumn: f.gradeColumn,
    similarityBands: [f.bandYellow, f.bandOrange, f.bandRed],
    language: f.language,
    documentType: f.documentType,
    instructions: f.instructions,
  } satisfies Record<keyof AssignmentSettings, unknown>;
  if (dueAt === undefined) {
    return { error: t('settings.error.dueAt'), field: 'dueAt', entered: asEntered(entered) };
  }
  const parsed = assignmentSettings.safeParse(entered);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    const messages: Record<string, string> = {
      excludedPhrases: t('settings.error.excludedPhrases', { count: MAX_EXCLUDED_PHRASES }),
      allowedFileTypes: t('settings.error.allowedFileTypes'),
      maxFileMb: t('settings.error.maxFileMb', { max: SERVICE_MAX_FILE_MB }),
      maxAttempts: t('settings.error.maxAttempts'),
      excludeThresholdWords: t('settings.error.excludeThresholdWords'),
      instructions: t('settings.error.instructions', { max: 10_000 }),
      similarityBands: t('settings.error.similarityBands'),
      language: t('settings.error.language'),
      documentType: t('settings.error.documentType', { types: DOCUMENT_TYPES.join(', ') }),
      gradeColumn: t('settings.error.gradeColumn'),
    };
    const top = field.split('.')[0]!;
    return {
      error: messages[top] ?? t('settings.error.field', { field, problem: issue.message }),
      field: top,
      entered: asEntered(entered),
    };
  }
  return { settings: parsed.data };
}
