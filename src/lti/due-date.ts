// The due date an LMS states in a launch, where the tool's registration asks for it as a custom parameter. Canvas
// expands $Canvas.assignment.dueAt.iso8601 to "the date that assignment is due for that student" in a student's
// launch (their own extension or section's date included) and to the latest effective due date of any section or
// student in an instructor's; with no due date it leaves the variable unexpanded
// (canvas-lms doc/api/tool_variables.md; test/fixtures/lms/canvas/due-date.md).
import { z } from 'zod';

/** The custom parameter the registration asks for (Canvas: custom_parameters of the tool configuration). */
export const DUE_DATE_PARAMETER = 'due_at';
/** What it asks Canvas to expand there. */
export const CANVAS_DUE_DATE_VARIABLE = '$Canvas.assignment.dueAt.iso8601';

const isoTime = z.string().datetime({ offset: true });

/**
 * The due date the launch states, as an ISO time; 'none' when the parameter is there unexpanded or empty (the LMS
 * has no due date for this person); undefined when the launch does not carry the parameter (the LMS was not asked
 * for it, or does not expand it): then nothing is known, and nothing changes.
 */
export function statedDueDate(custom: Record<string, unknown>): string | 'none' | undefined {
  const value = custom[DUE_DATE_PARAMETER];
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '' || text.startsWith('$')) return 'none';
  const parsed = isoTime.safeParse(text);
  return parsed.success ? new Date(parsed.data).toISOString() : undefined;
}
