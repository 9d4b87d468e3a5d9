// An assignment's settings form as its page fills it in, for tests that send it (changed, or as it is).
import type { AssignmentSettings } from '../../src/assignments/settings.js';

/** The settings form as the page fills it in from the current settings. */
export function settingsForm(settings: AssignmentSettings, ltik: string): URLSearchParams {
  const form = new URLSearchParams({ ltik });
  const box = (name: string, on: boolean) => on && form.append(name, 'on');
  box('excludeReferences', settings.excludeReferences);
  box('excludeQuotes', settings.excludeQuotes);
  box('excludeSmallSources', settings.excludeSmallSources);
  box('studentPapers', settings.databases.studentPapers);
  box('publications', settings.databases.publications);
  box('internet', settings.databases.internet);
  box('institutionRepository', settings.databases.institutionRepository);
  box('grammarCheck', settings.grammarCheck);
  box('showAiScoreToStudents', settings.showAiScoreToStudents);
  for (const type of settings.allowedFileTypes) form.append('allowedFileTypes', type);
  const [bandYellow, bandOrange, bandRed] = settings.similarityBands.map(String);
  const fields: Record<string, string> = {
    excludeThresholdWords: String(settings.excludeThresholdWords),
    excludedPhrases: settings.excludedPhrases.join('\n'),
    maxFileMb: String(settings.maxFileMb),
    resubmission: settings.resubmission,
    earlierAttempts: settings.earlierAttempts,
    maxAttempts: String(settings.maxAttempts),
    dueAt: settings.dueAt ? settings.dueAt.slice(0, 16) : '',
    resultsVisibleTo: settings.resultsVisibleTo,
    gradeColumn: settings.gradeColumn,
    bandYellow: bandYellow!,
    bandOrange: bandOrange!,
    bandRed: bandRed!,
    language: settings.language,
    documentType: settings.documentType,
    instructions: settings.instructions,
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}
