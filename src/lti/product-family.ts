// The LMSs the tool tells apart, by the product family code a platform announces: dynamic registration's platform
// configuration (https://www.imsglobal.org/spec/lti-dr/v1p0#platform-configuration), an administrator's word at
// registration, or a launch's tool_platform claim where the registration names none. Codes are kept as sent and
// compared here without regard to case. Every part that treats one LMS differently asks lmsOf and keys its own table
// by Lms (grades/platform-quirks.ts, grades/gradebook-use.ts, web/views.ts), so that the type checker asks each of
// them what a new LMS does there.
// Blackboard Learn's launches say "product_family_code": "BlackboardLearn" (tool_platform of a published Ultra launch,
// "version": "3900.93.0-rel.59+7d3ba1c"); Moodle's and Canvas's codes are in test/fixtures/lms/<lms>/.

/** Each LMS with the codes it is known by, the one the LMS itself spells first (an administrator is offered it). */
export const LMS_CODES = {
  moodle: ['moodle'],
  canvas: ['canvas'],
  brightspace: ['desire2learn', 'brightspace'],
  blackboard: ['BlackboardLearn', 'blackboard'],
  sakai: ['sakai'],
  schoology: ['schoology'],
} as const satisfies Record<string, readonly [string, ...string[]]>;

/** An LMS the tool knows by its code, or `other` for any other code and for none. */
export type Lms = keyof typeof LMS_CODES | 'other';

/** The product family codes an administrator may name, as the LMSs spell them. */
export const PRODUCT_FAMILIES: readonly string[] = Object.values(LMS_CODES).map((codes) => codes[0]);

const BY_CODE = new Map<string, Lms>(
  Object.entries(LMS_CODES).flatMap(([lms, codes]) => codes.map((code) => [code.toLowerCase(), lms as Lms] as const)),
);

/** The LMS a product family code names (null or unknown: `other`). */
export function lmsOf(productFamily: string | null | undefined): Lms {
  return BY_CODE.get(productFamily?.trim().toLowerCase() ?? '') ?? 'other';
}
