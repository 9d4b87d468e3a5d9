// What an instructor is told about an assignment a student opened first: it was created with the tool's defaults,
// which ones those are in words, and that saving the settings replaces them. The settings apply to each paper as
// it is sent, so a change made before the first paper goes reaches every paper.
import { FILE_TYPE_NAMES } from './settings.js';
import type { AssignmentSettings } from './settings.js';
import type { Assignment } from './store.js';

export interface DefaultsInUse {
  lines: string[];
}

const RESULTS: Record<AssignmentSettings['resultsVisibleTo'], string> = {
  instructors: 'only instructors see the results',
  'students-after-scoring': 'students see their similarity as soon as their paper is checked',
  'students-after-due': 'students see their similarity after the due date',
};

const RESUBMISSION: Record<AssignmentSettings['resubmission'], string> = {
  none: 'one attempt',
  'until-due': 'attempts until the due date',
  'any-time': 'attempts at any time',
};

/** The defaults an unreviewed assignment runs under, or null once an instructor has saved its settings. */
export function defaultsInUse(assignment: Assignment): DefaultsInUse | null {
  if (!assignment.settingsUnreviewed) return null;
  const s = assignment.settings;
  const left = [
    s.excludeReferences && 'references',
    s.excludeQuotes && 'quotes',
    s.excludeSmallSources && `sources under ${s.excludeThresholdWords} words`,
  ].filter(Boolean);
  const compared = [
    s.databases.studentPapers && 'student papers',
    s.databases.publications && 'publications',
    s.databases.internet && 'the internet',
    s.databases.institutionRepository && "the institution's repository",
  ].filter(Boolean);
  return {
    lines: [
      `File types: ${s.allowedFileTypes.map((type) => FILE_TYPE_NAMES[type]).join(', ')}; up to ${s.maxFileMb} MB each.`,
      `Attempts: ${s.resubmission === 'none' ? 'one attempt' : `${s.maxAttempts} ${RESUBMISSION[s.resubmission]}`}; ${s.dueAt ? `due ${s.dueAt}` : 'no due date'}.`,
      `Left out of the score: ${left.length ? left.join(', ') : 'nothing'}. Compared with: ${compared.length ? compared.join(', ') : 'nothing'}. Grammar check ${s.grammarCheck ? 'on' : 'off'}.`,
      `Results: ${RESULTS[s.resultsVisibleTo]}; the AI score is ${s.showAiScoreToStudents ? 'shown to' : 'hidden from'} students.`,
    ],
  };
}
