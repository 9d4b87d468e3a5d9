// The students an instructor's class overview lists besides those who submitted: the course roster from the LMS
// (NRPS), when the LMS shares it; otherwise a sentence saying why the list may be short.
import type { PlatformLookup } from '../lti/platform.js';
import type { Assignment } from '../assignments/store.js';
import type { Launch } from '../lti/launch.js';
import { RosterUnavailable, fetchRoster, type RosterMember } from '../lti/roster.js';

export interface ClassRoster {
  members: RosterMember[];
  /** Why students who have not submitted may be missing; null when the roster was read. */
  problem: string | null;
}

/** The roster of the assignment's course, from the memberships URL the assignment or the current launch names. */
export async function classRoster(
  deps: { provider: PlatformLookup; logger: { warn(details: object, message: string): void } },
  assignment: Assignment,
  launch: Pick<Launch, 'issuer' | 'clientId' | 'membershipsUrl'>,
): Promise<ClassRoster> {
  const url = assignment.membershipsUrl ?? launch.membershipsUrl;
  if (!url)
    return {
      members: [],
      problem:
        'The LMS does not share the class list with the tool, so students who have not submitted are not listed.',
    };
  try {
    return {
      members: await fetchRoster(deps.provider, { issuer: launch.issuer, clientId: launch.clientId }, url),
      problem: null,
    };
  } catch (error) {
    if (!(error instanceof RosterUnavailable)) throw error;
    deps.logger.warn({ reason: error.message }, 'Roster not available');
    return {
      members: [],
      problem:
        'The class list could not be read from the LMS just now; students who have not submitted are not listed.',
    };
  }
}
