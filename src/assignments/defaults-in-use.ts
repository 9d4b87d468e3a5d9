// What an instructor is told about an assignment a student opened first: it was created with the tool's defaults,
// which ones those are in words, and that saving the settings replaces them. The settings apply to each paper as
// it is sent, so a change made before the first paper goes reaches every paper.
import type { MessageKey, Sentence } from '../i18n/index.js';
import { fileTypeName, type AssignmentSettings } from './settings.js';
import type { Assignment } from './store.js';

const RESULTS: Record<AssignmentSettings['resultsVisibleTo'], MessageKey> = {
  instructors: 'defaults.results.instructors',
  'students-after-scoring': 'defaults.results.afterScoring',
  'students-after-due': 'defaults.results.afterDue',
};

const said = (key: MessageKey): Sentence => ({ key });

/**
 * The settings the notice does not name, each with the reason; it names every other one, which the rules test holds
 * (test/assignments/defaults-in-use.unit.test.ts changes each setting and reads the notice again).
 */
export const NOT_TOLD = {
  excludedPhrases: 'none by default, and a list of phrases is no line of a notice',
  language: "the paper's language for the service, English unless an instructor names another",
  documentType: "the paper's kind for the service, Assignment unless an instructor names another",
  earlierAttempts: 'the settings page says both choices and their consequences beside them',
  gradeColumn: 'the dashboard says what the gradebook gets (dashboard.gradebookUse)',
  similarityBands: 'the dashboard shows each band by its name beside the score',
  instructions: 'none by default; the students read them on their page',
} as const satisfies Partial<Record<keyof AssignmentSettings, string>>;

/** The defaults an unreviewed assignment runs under, one sentence a line, or null once an instructor has saved its settings. */
export function defaultsInUse(assignment: Assignment): Sentence[] | null {
  if (!assignment.settingsUnreviewed) return null;
  const s = assignment.settings;
  const left: Sentence[] = [
    ...(s.excludeReferences ? [said('defaults.leftOut.references')] : []),
    ...(s.excludeQuotes ? [said('defaults.leftOut.quotes')] : []),
    ...(s.excludeSmallSources
      ? [{ key: 'defaults.leftOut.smallSources', params: { words: s.excludeThresholdWords } } as const]
      : []),
  ];
  const compared: Sentence[] = [
    ...(s.databases.studentPapers ? [said('defaults.compared.studentPapers')] : []),
    ...(s.databases.publications ? [said('defaults.compared.publications')] : []),
    ...(s.databases.internet ? [said('defaults.compared.internet')] : []),
    ...(s.databases.institutionRepository ? [said('defaults.compared.repository')] : []),
  ];
  const attempts: Sentence =
    s.resubmission === 'none'
      ? said('defaults.attempts.one')
      : {
          key: s.resubmission === 'until-due' ? 'defaults.attempts.untilDue' : 'defaults.attempts.anyTime',
          params: { count: s.maxAttempts },
        };
  const nothing = said('defaults.nothing');
  return [
    { key: 'defaults.fileTypes', params: { types: s.allowedFileTypes.map(fileTypeName), size: s.maxFileMb } },
    {
      key: 'defaults.attempts',
      params: { attempts, due: s.dueAt ? { key: 'defaults.due', params: { date: s.dueAt } } : said('defaults.noDue') },
    },
    {
      key: 'defaults.scoring',
      params: {
        left: left.length ? left : nothing,
        compared: compared.length ? compared : nothing,
        grammar: said(s.grammarCheck ? 'defaults.grammar.on' : 'defaults.grammar.off'),
      },
    },
    {
      key: 'defaults.results',
      params: {
        results: said(RESULTS[s.resultsVisibleTo]),
        ai: said(s.showAiScoreToStudents ? 'defaults.ai.shown' : 'defaults.ai.hidden'),
      },
    },
  ];
}
