// The emulator's memory: its course, people, resource links, line items, scores and tokens.
export type PlatformRules = 'moodle' | 'canvas' | 'spec';

export const LIS = 'http://purl.imsglobal.org/vocab/lis/v2';
export const ROLES = {
  instructor: [`${LIS}/membership#Instructor`, `${LIS}/institution/person#Faculty`],
  learner: [`${LIS}/membership#Learner`, `${LIS}/institution/person#Student`],
  admin: [`${LIS}/institution/person#Administrator`, `${LIS}/system/person#Administrator`],
};

export interface DevUser {
  /** The LTI `sub`. */
  id: string;
  name: string;
  email: string;
  roles: string[];
}

export interface Course {
  id: string;
  title: string;
  label: string;
}

export interface LineItem {
  id: string;
  label: string;
  scoreMaximum: number;
  tag?: string;
  resourceId?: string;
  resourceLinkId?: string;
}

export interface ResourceLink {
  id: string;
  title: string;
  custom: Record<string, string>;
  /** Line items bound to the link (the platform sends `lineitem` when there is exactly one). */
  lineItemIds: string[];
}

export interface Score {
  lineItemId: string;
  userId: string;
  scoreGiven: number | null;
  scoreMaximum: number;
  comment?: string;
  timestamp: string;
  activityProgress: string;
  gradingProgress: string;
  submittedAt?: string;
}

export interface ScoreLogEntry {
  lineItemId: string;
  userId: string;
  status: number;
  body: unknown;
}

export interface AccessToken {
  token: string;
  scopes: string[];
  expiresAt: number;
}

export const DEFAULT_COURSE: Course = { id: 'course-101', title: 'Academic Writing 101', label: 'AW101' };

export const DEFAULT_USERS: DevUser[] = [
  { id: 'instructor-1', name: 'Iris Instructor', email: 'iris.instructor@example.edu', roles: ROLES.instructor },
  { id: 'student-1', name: 'Sam Student', email: 'sam.student@example.edu', roles: ROLES.learner },
  { id: 'student-2', name: 'Noor Student', email: 'noor.student@example.edu', roles: ROLES.learner },
  { id: 'student-3', name: 'Lee Student', email: 'lee.student@example.edu', roles: ROLES.learner },
  { id: 'admin-1', name: 'Ada Administrator', email: 'ada.admin@example.edu', roles: ROLES.admin },
];
