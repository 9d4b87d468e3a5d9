// The due dates an LMS states in a launch, where the tool's registration asks for them as custom parameters. Canvas
// expands $Canvas.assignment.dueAt.iso8601 to "the date that assignment is due for that student" in a student's
// launch (their own extension or section's date included), and $Canvas.assignment.allDueAts.iso8601 to every due
// date the assignment has, an empty entry for anyone with none; a variable with nothing to expand to stays as it is
// (canvas-lms doc/api/tool_variables.md; test/fixtures/lms/canvas/due-date.md).
import { z } from 'zod';

/** The custom parameters the registration asks for (Canvas: custom_parameters of the tool configuration). */
export const DUE_DATE_PARAMETERS = {
  due_at: '$Canvas.assignment.dueAt.iso8601',
  all_due_at: '$Canvas.assignment.allDueAts.iso8601',
} as const;

const isoTime = z.string().datetime({ offset: true });

/** One stated date: an ISO time (UTC), 'none' (empty: no date), or undefined (unreadable). */
function dateOf(text: string): string | 'none' | undefined {
  if (text === '') return 'none';
  const parsed = isoTime.safeParse(text);
  return parsed.success ? new Date(parsed.data).toISOString() : undefined;
}

export interface StatedDueDates {
  /**
   * The date that holds for the person who launched: an ISO time; 'none' when the parameter came unexpanded or empty
   * (no date for them); undefined when the launch does not carry it, or not readably: nothing is known then.
   */
  dueAt: string | 'none' | undefined;
  /** The assignment's one date for everyone ('none': no one has one), 'several' (dates differ), or undefined (not said). */
  forEveryone: string | 'none' | 'several' | undefined;
}

export function statedDueDates(custom: Record<string, unknown>): StatedDueDates {
  const own = custom.due_at;
  const all = custom.all_due_at;
  const dueAt = typeof own !== 'string' ? undefined : own.trim().startsWith('$') ? 'none' : dateOf(own.trim());
  let forEveryone: StatedDueDates['forEveryone'];
  if (typeof all === 'string' && !all.trim().startsWith('$')) {
    const dates = new Set(all.split(',').map((entry) => dateOf(entry.trim())));
    if (!dates.has(undefined)) forEveryone = dates.size === 1 ? [...dates][0] : 'several';
  }
  return { dueAt, forEveryone };
}
