// What each gradebook choice means in the assignment's LMS, and what saving a change of choice posts: the settings
// page says both beside the choices, before anything is saved. The LMS is the product family stored with the
// platform's registration, as for the quirks (platform-quirks.ts, lti/product-family.ts); each consequence rests on
// that LMS's fixture (test/fixtures/lms/<lms>/gradebook.md).
import type { Kysely } from 'kysely';
import { GRADE_COLUMNS, type GradeColumn } from '../assignments/settings.js';
import type { Assignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import type { MessageKey, Sentence } from '../i18n/index.js';
import { lmsOf, type Lms } from '../lti/product-family.js';
import { countPapersToPost } from './resync.js';

/** What each LMS does with each choice where its own code or documents say so; every LMS has its line. */
export const LMS_CONSEQUENCES: Record<Lms, Partial<Record<GradeColumn, MessageKey>>> = {
  moodle: { comment: 'settings.column.lms.moodle.comment', assignment: 'settings.column.lms.moodle.assignment' },
  canvas: {
    comment: 'settings.column.lms.canvas.comment',
    assignment: 'settings.column.lms.canvas.assignment',
    similarity: 'settings.column.lms.canvas.similarity',
  },
  brightspace: { comment: 'settings.column.lms.brightspace.comment' },
  blackboard: {
    assignment: 'settings.column.lms.blackboard.assignment',
    similarity: 'settings.column.lms.blackboard.similarity',
  },
  sakai: {},
  schoology: {},
  other: {},
};

/**
 * What the LMS itself does with a choice, beyond what the tool posts, where its own code or documents say so:
 * Moodle's override (moodle C), Canvas's needs-grading list and posted comments (canvas C4, C8), its grade shown at
 * once under the automatic post policy (C8) and the column of its own as an assignment (C10), Brightspace's "ready
 * for evaluation" (brightspace B1), Blackboard Ultra's grades posted at once (blackboard K1). Null where they are
 * silent.
 */
export function lmsConsequence(lms: Lms, choice: GradeColumn): MessageKey | null {
  return LMS_CONSEQUENCES[lms][choice] ?? null;
}

/**
 * What saving a change from `current` to `choice` posts, for the number of checked papers a resync posts
 * (resync.ts countPapersToPost): nothing for the current choice; otherwise every checked paper again, as the new
 * choice says (gradebook-sink.ts settingsChanged).
 */
export function changePreview(
  current: GradeColumn,
  choice: GradeColumn,
  papers: number,
): { key: MessageKey; count: number } {
  if (choice === current) return { key: 'settings.column.preview.unchanged', count: papers };
  if (papers === 0) return { key: 'settings.column.preview.nothingYet', count: 0 };
  return { key: `settings.column.preview.${choice}`, count: papers };
}

/** Each choice as the settings page offers it: what the LMS makes of it, and what saving it would post now. */
export interface GradebookChoice {
  choice: GradeColumn;
  consequence: Sentence | null;
  preview: Sentence;
}

/** The choices of an assignment, by its platform's LMS and its checked papers. */
export async function gradebookChoices(
  db: Kysely<DatabaseSchema>,
  assignment: Pick<Assignment, 'id' | 'platformId' | 'title' | 'settings'>,
): Promise<GradebookChoice[]> {
  const platform = await db
    .selectFrom('platform')
    .select('product_family')
    .where('id', '=', assignment.platformId)
    .executeTakeFirst();
  const lms = lmsOf(platform?.product_family);
  const papers = await countPapersToPost(db, assignment.id);
  return GRADE_COLUMNS.map((choice) => {
    const consequence = lmsConsequence(lms, choice);
    const { key, count } = changePreview(assignment.settings.gradeColumn, choice, papers);
    return {
      choice,
      consequence: consequence ? { key: consequence, params: { title: assignment.title } } : null,
      preview: { key, params: { count } },
    };
  });
}
