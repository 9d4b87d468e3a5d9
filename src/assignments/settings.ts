// An assignment's settings: the checks the service runs on its folder, and the tool's own rules for intake and
// for who sees what. One zod schema is both the validation at the edge (the settings form, the database) and
// the defaults of a new assignment.
import { z } from 'zod';
import type { Sentence } from '../i18n/index.js';

export const FILE_TYPES = ['pdf', 'docx', 'doc', 'odt', 'rtf', 'txt', 'html'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** A file type as a person reads it, in the reader's words. */
export const fileTypeName = (type: FileType): Sentence => ({ key: `fileType.${type}` });

export const FILE_EXTENSIONS: Record<FileType, string> = {
  pdf: 'pdf',
  docx: 'docx',
  doc: 'doc',
  odt: 'odt',
  rtf: 'rtf',
  txt: 'txt',
  html: 'html',
};

/** The service's limit per file (its own web UI and Moodle plugin enforce 100 MB). */
export const SERVICE_MAX_FILE_MB = 100;
export const MAX_EXCLUDED_PHRASES = 15;

/** The document types the service names (it may take others; it does not list them). */
export const DOCUMENT_TYPES = ['Assignment', 'Article', 'Thesis'] as const;

/** What the LMS gradebook gets: a comment beside the submission, the similarity as the grade, or a column of its own. */
export const GRADE_COLUMNS = ['comment', 'assignment', 'similarity'] as const;
export type GradeColumn = (typeof GRADE_COLUMNS)[number];

export const assignmentSettings = z.object({
  // Checks at the service (folder settings).
  excludeReferences: z.boolean().default(true),
  excludeQuotes: z.boolean().default(true),
  excludeSmallSources: z.boolean().default(false),
  /** A source matching fewer words than this is left out of the score when small sources are excluded. */
  excludeThresholdWords: z.number().int().min(0).max(1000).default(10),
  excludedPhrases: z.array(z.string().trim().min(1).max(500)).max(MAX_EXCLUDED_PHRASES).default([]),
  databases: z
    .object({
      studentPapers: z.boolean().default(true),
      publications: z.boolean().default(true),
      internet: z.boolean().default(true),
      institutionRepository: z.boolean().default(true),
    })
    .default({ studentPapers: true, publications: true, internet: true, institutionRepository: true }),
  grammarCheck: z.boolean().default(false),
  language: z.string().trim().min(1).max(60).default('English'),
  documentType: z.string().trim().min(1).max(60).default('Assignment'),
  // The tool's own rules.
  allowedFileTypes: z.array(z.enum(FILE_TYPES)).min(1).default(['pdf', 'docx', 'doc', 'odt', 'rtf', 'txt']),
  maxFileMb: z.number().int().min(1).max(SERVICE_MAX_FILE_MB).default(SERVICE_MAX_FILE_MB),
  resubmission: z.enum(['none', 'until-due', 'any-time']).default('until-due'),
  maxAttempts: z.number().int().min(1).max(50).default(3),
  /**
   * What becomes of a student's earlier attempt at the service once their next one is received: "replace" (the
   * default) deletes its paper there before the new one is sent, so a revision is not matched against the student's
   * own draft (its result stays in the history, marked replaced; its report goes with the paper); "keep" keeps every
   * attempt there, so each later attempt is compared with the earlier ones too.
   */
  earlierAttempts: z.enum(['replace', 'keep']).default('replace'),
  dueAt: z.string().datetime({ offset: true }).nullable().default(null),
  resultsVisibleTo: z
    .enum(['instructors', 'students-after-scoring', 'students-after-due'])
    .default('students-after-scoring'),
  showAiScoreToStudents: z.boolean().default(false),
  /**
   * What the LMS gradebook gets (grades/gradebook-use.ts says what each LMS does with it):
   * - "comment" (the default): the assignment's own column gets the similarity as a comment beside the
   *   submission and no grade, so no grade and no course total is computed from a similarity, and a grade the
   *   teacher gives stays theirs;
   * - "assignment": the similarity (0 to 100) is posted as the assignment's grade, which students see and which
   *   counts in the course total;
   * - "similarity": a column of its own ("Similarity: <title>", tag "similarity"), which counts in the course total
   *   unless the teacher leaves it out there; it needs the platform to let the tool create columns.
   */
  gradeColumn: z.enum(GRADE_COLUMNS).default('comment'),
  /** Lower bounds of the yellow, orange and red similarity bands (0-24 green, 25-49 yellow, 50-74 orange, 75-100 red). */
  similarityBands: z
    .tuple([z.number().int().min(1).max(100), z.number().int().min(1).max(100), z.number().int().min(1).max(100)])
    .refine(([a, b, c]) => a < b && b < c, 'Each band must start above the one before.')
    .default([25, 50, 75]),
  instructions: z.string().max(10_000).default(''),
});

export type AssignmentSettings = z.infer<typeof assignmentSettings>;

/** The largest file the assignment takes, in bytes: the server's intake and the upload page's check both use it. */
export function maxFileBytes(settings: Pick<AssignmentSettings, 'maxFileMb'>): number {
  return settings.maxFileMb * 1024 * 1024;
}

export function defaultSettings(): AssignmentSettings {
  return assignmentSettings.parse({});
}

/** Settings as stored: a value that no longer fits the schema (written by an older version) reads as the defaults. */
export const storedSettings = assignmentSettings.catch(() => defaultSettings());

export type Band = 'green' | 'yellow' | 'orange' | 'red';

export const BAND_TEXT: Record<Band, string> = { green: 'low', yellow: 'moderate', orange: 'high', red: 'very high' };

/** Each band's colour where an LMS shows one swatch for it (an asset report's indicationColor, #RRGGBB). */
export const BAND_COLOUR: Record<Band, string> = {
  green: '#2E7D32',
  yellow: '#F9A825',
  orange: '#EF6C00',
  red: '#C62828',
};

export function bandOf(similarity: number, bands: readonly [number, number, number]): Band {
  if (similarity >= bands[2]) return 'red';
  if (similarity >= bands[1]) return 'orange';
  if (similarity >= bands[0]) return 'yellow';
  return 'green';
}
