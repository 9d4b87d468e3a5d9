// Which side of the tool a launch opens, from the LTI roles claim (LTI 1.3 core, appendix A.2: LIS vocabulary).
// Context roles decide; institution and system administrators count as instructors, as Moodle and Canvas send
// those roles to site admins who open a course.

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2';

/** The principal context roles, as a platform is told who may use a service (submission review's reachableBy). */
export const MEMBERSHIP = { instructor: `${LIS}/membership#Instructor`, learner: `${LIS}/membership#Learner` } as const;

const INSTRUCTOR_ROLES = new Set([
  MEMBERSHIP.instructor,
  `${LIS}/membership#ContentDeveloper`,
  `${LIS}/membership#Administrator`,
  `${LIS}/institution/person#Administrator`,
  `${LIS}/system/person#Administrator`,
  `${LIS}/system/person#SysAdmin`,
]);
/** Sub-roles (`membership/Instructor#TeachingAssistant`) belong to their principal role (spec A.2.3.1). */
const INSTRUCTOR_PREFIXES = [
  `${LIS}/membership/Instructor#`,
  `${LIS}/membership/ContentDeveloper#`,
  `${LIS}/membership/Administrator#`,
];
const LEARNER_ROLES = new Set<string>([MEMBERSHIP.learner]);
const LEARNER_PREFIXES = [`${LIS}/membership/Learner#`];
/** LTI 1.3 still accepts the bare names of context roles (spec A.2.3, "simple names"). */
const SIMPLE_INSTRUCTOR = new Set(['Instructor', 'TeachingAssistant', 'ContentDeveloper', 'Administrator']);
const SIMPLE_LEARNER = new Set(['Learner']);
const ADMIN_ROLES = new Set([
  `${LIS}/institution/person#Administrator`,
  `${LIS}/system/person#Administrator`,
  `${LIS}/system/person#SysAdmin`,
]);

export type Audience = 'instructor' | 'learner' | 'none';

export function audienceOf(roles: readonly string[]): Audience {
  const has = (set: Set<string>, prefixes: string[]) =>
    roles.some((role) => set.has(role) || prefixes.some((p) => role.startsWith(p)));
  if (has(INSTRUCTOR_ROLES, INSTRUCTOR_PREFIXES) || roles.some((role) => SIMPLE_INSTRUCTOR.has(role)))
    return 'instructor';
  if (has(LEARNER_ROLES, LEARNER_PREFIXES) || roles.some((role) => SIMPLE_LEARNER.has(role))) return 'learner';
  return 'none';
}

export function isPlatformAdmin(roles: readonly string[]): boolean {
  return roles.some((role) => ADMIN_ROLES.has(role));
}
