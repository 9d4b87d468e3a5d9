// The custom parameters of a launch with the substitution variables the tool asks for expanded as Canvas expands
// them (canvas-lms doc/api/tool_variables.md, test/fixtures/lms/canvas/due-date.md): $Canvas.assignment.dueAt.iso8601
// is, in a student's launch, the date the assignment is due for that student; in an instructor's, the latest
// effective due date of any student; left unexpanded where there is none. $Canvas.assignment.allDueAts.iso8601 lists
// every date. Other values go as they are.
import { teaches, type DevUser, type PlatformMemory, type ResourceLink } from './state.js';

const DUE_AT = '$Canvas.assignment.dueAt.iso8601';
const ALL_DUE_ATS = '$Canvas.assignment.allDueAts.iso8601';

/** As Canvas's expander writes a time: Time#iso8601 of its UTC value, seconds and no fraction. */
const canvasTime = (date: string) => new Date(date).toISOString().replace(/\.\d{3}Z$/, 'Z');

function dueAtFor(link: ResourceLink, userId: string, instructor: boolean): string | null {
  const own = link.dueAtFor?.[userId];
  if (!instructor) return own ?? link.dueAt ?? null;
  const all = [link.dueAt, ...Object.values(link.dueAtFor ?? {})];
  if (all.some((date) => date === null || date === undefined)) return null;
  return (all as string[]).sort((a, b) => Date.parse(a) - Date.parse(b)).at(-1) ?? null;
}

/** What the tool's dynamic registration asked every launch to carry (its configuration's custom_parameters). */
function registeredCustom(memory: PlatformMemory): Record<string, string> {
  const configuration = memory.dynamicRegistrations.at(-1)?.['https://purl.imsglobal.org/spec/lti-tool-configuration'];
  const custom = (configuration as { custom_parameters?: unknown } | undefined)?.custom_parameters;
  if (typeof custom !== 'object' || custom === null) return {};
  return Object.fromEntries(
    Object.entries(custom).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The launch's custom parameters: the registration's, then the link's over them, with the variables expanded. */
export function expandedCustom(memory: PlatformMemory, link: ResourceLink, user: DevUser): Record<string, string> {
  return Object.fromEntries(
    Object.entries({ ...registeredCustom(memory), ...link.custom }).map(([key, value]) => {
      if (value === ALL_DUE_ATS) {
        // Every date the assignment has, an empty entry for anyone with none ("2018-02-19:00:00Z,,2018-02-20:00:00Z").
        const all = [link.dueAt ?? null, ...Object.values(link.dueAtFor ?? {})];
        return [key, [...new Set(all.map((date) => (date ? canvasTime(date) : '')))].join(',')];
      }
      if (value !== DUE_AT) return [key, value];
      const date = dueAtFor(link, user.id, teaches(user));
      return [key, date === null ? value : canvasTime(date)];
    }),
  );
}
