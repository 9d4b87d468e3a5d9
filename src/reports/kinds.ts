// The reports of a checked paper, in one place: who may open each, where the student's pages list it, what each is
// called, and which assignment settings switch it on. The kinds themselves are the service's (checker/types.ts); everything the tool adds to
// them is here, and the pages, the report route and the class table all ask this file.
import type { AssignmentSettings } from '../assignments/settings.js';
import type { MessageKey, Sentence } from '../i18n/index.js';
import { REPORT_KINDS, type ReportKind } from '../checker/index.js';
import type { Submission } from '../submissions/store.js';

export { REPORT_KINDS, type ReportKind };

/** Who opens a report: an instructor of the course, or the student whose paper it is. */
export type ReportReader = 'instructor' | 'student';

interface ReportKindRule {
  /** Where the student's pages list it, from 1: the summary second. The class table follows the service's order. */
  studentPlace: number;
  /**
   * The setting that must be on for a student to open it, beyond the assignment showing results at all. Instructors
   * open every report of their assignment's papers. The AI report and the summary (which states the AI score too)
   * follow the AI score: students see them only where the assignment shows students that score.
   */
  studentsNeed: 'showAiScoreToStudents' | null;
  /**
   * A report the service makes only when a folder setting asks for it, with the trace that setting leaves on a
   * paper checked under it (the setting may have changed since) and the sentence for a paper that has none.
   */
  optional: {
    setting: 'grammarCheck';
    madeFor(paper: Pick<Submission, 'grammarScore'>): boolean;
    missing: Sentence;
  } | null;
}

export const REPORTS: Record<ReportKind, ReportKindRule> = {
  similarity: { studentPlace: 1, studentsNeed: null, optional: null },
  ai: { studentPlace: 3, studentsNeed: 'showAiScoreToStudents', optional: null },
  summary: { studentPlace: 2, studentsNeed: 'showAiScoreToStudents', optional: null },
  grammar: {
    studentPlace: 4,
    studentsNeed: null,
    optional: {
      setting: 'grammarCheck',
      madeFor: (paper) => paper.grammarScore !== null,
      missing: { key: 'report.noGrammar' },
    },
  },
};

/** The order each page lists a paper's reports in: the class table follows the service; students get the summary second. */
const PAGE_ORDER: Record<ReportReader, readonly ReportKind[]> = {
  instructor: REPORT_KINDS,
  student: [...REPORT_KINDS].sort((a, b) => REPORTS[a].studentPlace - REPORTS[b].studentPlace),
};

/**
 * A kind's name as a reader's page says it, a key of the catalogue (`report.<reader>.<kind>`): the type checker
 * refuses this line while a kind lacks its name for either reader in English.
 */
export function reportName(
  reader: ReportReader,
  kind: ReportKind,
): `report.${ReportReader}.${ReportKind}` & MessageKey {
  return `report.${reader}.${kind}` as const;
}

/** Whether a student may open a report of this kind of their own checked paper (once results are shown). */
export function studentMayOpen(settings: AssignmentSettings, kind: ReportKind): boolean {
  const needed = REPORTS[kind].studentsNeed;
  return needed === null || settings[needed];
}

/** The reports of a checked paper that a reader is offered, in the page's order (their names: report.<reader>.<kind>). */
export function reportsOffered(
  reader: ReportReader,
  settings: AssignmentSettings,
  paper: Pick<Submission, 'grammarScore'>,
): Array<{ kind: ReportKind }> {
  return PAGE_ORDER[reader]
    .filter((kind) => REPORTS[kind].optional?.madeFor(paper) ?? true)
    .filter((kind) => reader === 'instructor' || studentMayOpen(settings, kind))
    .map((kind) => ({ kind }));
}
