// Where a launch sends its person, with their ltik: the assignment's page, or an instructor's dashboard.
import type { Launch } from '../../lti/launch.js';
import { dashboardPath } from '../instructor-pages.js';
import { pageAddress } from '../page-address.js';

export function assignmentPath(assignmentId: string, ltik: string): string {
  return pageAddress(`/assignments/${assignmentId}`, ltik);
}

/**
 * Where a launch lands, in the one redirect after the launch's POST: an instructor on the assignment's dashboard
 * (not on /assignments/<id>, which would send them on there in a second hop), anyone else on the assignment's page.
 */
export function landingPath(assignmentId: string, audience: Launch['audience'], ltik: string): string {
  return audience === 'instructor' ? dashboardPath(assignmentId, ltik) : assignmentPath(assignmentId, ltik);
}
