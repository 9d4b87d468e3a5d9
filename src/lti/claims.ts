// The LTI claims and service scopes the tool reads, each URI written once, with the specification that defines it.
// Where an LMS sends a claim, a field or a scope under another name (its dialect), the other names are listed here
// as data beside the standard one, each with the source that shows the LMS sending it. A dialect widens what the
// tool *reads*; it never widens what it *trusts*: every message is verified as strictly whichever names it uses.
//
// Sources of the dialects (kept as fixtures with their source in test/fixtures/lms/<lms>/):
// - Canvas: doc/api/document_processor.md and doc/api/pns.md (canvas-lms), the standard `lti/claim/…` names.
// - Blackboard Learn Ultra: a real LtiAssetProcessorSubmissionNotice published in Blackboard's reference tool
//   (blackboard/BBDN-LTI-Tool-Provider-Node, docs/pns.md, delivered 2026-07-31): `lti-aip/claim/activity`
//   {activity_id}, `lti-aip/claim/submission` {submission_id}, `lti-ap/claim/assetservice` with `checksum`, and
//   no assetreport claim; the same tool's server/src/app/processor.js reads `lti-ap/claim/assetreport` and asks for
//   the scopes `lti-ap/scope/asset.readonly` and `lti-ap/scope/report`.
// The sources disagree on one point: the specification and Canvas carry the report address in every notice,
// Blackboard's published notice carries none ("the report endpoint comes from the Asset Processor launch"). The tool
// takes it from the notice when there is one, else from the last launch of that processor that named one.
import { z } from 'zod';

/** LTI Core 1.3 claims: https://www.imsglobal.org/spec/lti/v1p3/#required-message-claims */
const LTI = 'https://purl.imsglobal.org/spec/lti/claim';
/** The Asset Processor's draft names as Blackboard Learn Ultra sends them (see above). */
const LTI_AP = 'https://purl.imsglobal.org/spec/lti-ap/claim';
const LTI_AIP = 'https://purl.imsglobal.org/spec/lti-aip/claim';

export const CLAIM = {
  messageType: `${LTI}/message_type`,
  version: `${LTI}/version`,
  deploymentId: `${LTI}/deployment_id`,
  targetLinkUri: `${LTI}/target_link_uri`,
  resourceLink: `${LTI}/resource_link`,
  roles: `${LTI}/roles`,
  context: `${LTI}/context`,
  custom: `${LTI}/custom`,
  toolPlatform: `${LTI}/tool_platform`,
  launchPresentation: `${LTI}/launch_presentation`,
  /** LTI Submission Review 1.0, and the Asset Processor's launches: the person the message is about. */
  forUser: `${LTI}/for_user`,
  /** Platform Notification Service 1.0: https://www.imsglobal.org/spec/lti-pns/v1p0/main */
  notice: `${LTI}/notice`,
  platformNotificationService: `${LTI}/platformnotificationservice`,
  /** Asset Processor (https://www.imsglobal.org/spec/lti-ap/v1p0): the LMS's assignment, submission, assets, report. */
  activity: `${LTI}/activity`,
  submission: `${LTI}/submission`,
  asset: `${LTI}/asset`,
  assetReportType: `${LTI}/assetreport_type`,
  assetService: `${LTI}/assetservice`,
  assetReport: `${LTI}/assetreport`,
  eulaService: `${LTI}/eulaservice`,
  lis: `${LTI}/lis`,
  /** LTI Deep Linking 2.0: https://www.imsglobal.org/spec/lti-dl/v2p0#deep-linking-settings */
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  /** Assignment and Grade Services 2.0: https://www.imsglobal.org/spec/lti-ags/v2p0/#assignment-and-grade-service-claim */
  agsEndpoint: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  /** Names and Role Provisioning Services 2.0: https://www.imsglobal.org/spec/lti-nrps/v2p0#lti-1-3-integration */
  namesRoleService: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
} as const;
export type ClaimName = keyof typeof CLAIM;

/** Other URIs an LMS sends a claim under, in the order they are looked for after the standard one. */
const CLAIM_ALIASES: Partial<Record<ClaimName, readonly string[]>> = {
  activity: [`${LTI_AIP}/activity`],
  submission: [`${LTI_AIP}/submission`],
  assetService: [`${LTI_AP}/assetservice`, `${LTI_AIP}/assetservice`],
  assetReport: [`${LTI_AP}/assetreport`, `${LTI_AIP}/assetreport`],
};

/** Every URI the claim may arrive under, the standard one first. */
export const claimUris = (name: ClaimName): readonly string[] => [CLAIM[name], ...(CLAIM_ALIASES[name] ?? [])];

/** The claim's value under the first of its names present in a (verified) payload, or undefined. */
export function readClaim(payload: Record<string, unknown>, name: ClaimName): unknown {
  for (const uri of claimUris(name)) if (uri in payload && payload[uri] !== undefined) return payload[uri];
  return undefined;
}

/** Fields an LMS names otherwise inside a claim: the standard name, then the others. */
export const FIELD_ALIASES = {
  /** Blackboard: `lti-aip/claim/activity` {activity_id}. */
  activityId: ['id', 'activity_id'],
  /** Blackboard: `lti-aip/claim/submission` {submission_id}. */
  submissionId: ['id', 'submission_id'],
} as const;

/** The first of the names present in an object, as the standard name; the object unchanged when it has none. */
export function readField(value: unknown, names: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const found = names.find((name) => record[name] !== undefined);
  return found === undefined ? value : { ...record, [names[0]!]: record[found] };
}

/**
 * The value with every member whose value is null left out, in the objects inside it too (arrays keep their entries,
 * and objects in them are read the same way): null where a claim or a field is optional reads as absent, and where one
 * is required it is missing, refused with the sentence of a missing one.
 *
 * Canvas sends such nulls (canvas-lms, read in test/fixtures/lms/canvas/resource-link-request.json with the markers
 * of each copy): `LtiAdvantage::Serializers::JwtMessageSerializer#serializable_hash` compacts only the top level
 * (`promote_extensions(apply_claim_prefixes(hash.compact))`), so a nested claim keeps a field its builder set to nil
 * (`ResourceLinkRequest#add_resource_link_request_claims!`: `@message.resource_link.description =
 * @assignment&.description`), and the extensions merged in after the compact may be null at the top level
 * (`"https://www.instructure.com/placement": null` in doc/api/document_processor.md's launches). The specification
 * says nothing of null; LTI Core 5.3 and 5.4 only name claims a platform may leave out.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) if (inner !== null) kept[name] = withoutNulls(inner);
  return kept;
}

/**
 * The payload with each dialect's names read as the standard ones: a claim found only under an alias is added under
 * its standard URI, and the activity's and submission's id fields likewise; and null read as absent (withoutNulls).
 * Only a verified payload is passed here; what it returns is read by the same schemas as a standard payload.
 */
export function withStandardNames(verified: Record<string, unknown>): Record<string, unknown> {
  const named = withoutNulls(verified) as Record<string, unknown>;
  for (const name of Object.keys(CLAIM_ALIASES) as ClaimName[]) {
    const value = readClaim(named, name);
    if (value !== undefined) named[CLAIM[name]] = value;
  }
  if (named[CLAIM.activity] !== undefined)
    named[CLAIM.activity] = readField(named[CLAIM.activity], FIELD_ALIASES.activityId);
  if (named[CLAIM.submission] !== undefined)
    named[CLAIM.submission] = readField(named[CLAIM.submission], FIELD_ALIASES.submissionId);
  return named;
}

/** Service scopes: https://www.imsglobal.org/spec/lti-ap/v1p0 , https://www.imsglobal.org/spec/lti-pns/v1p0/main , AGS, NRPS */
export const SCOPE = {
  noticeHandlers: 'https://purl.imsglobal.org/spec/lti/scope/noticehandlers',
  assetRead: 'https://purl.imsglobal.org/spec/lti/scope/asset.readonly',
  report: 'https://purl.imsglobal.org/spec/lti/scope/report',
  eulaUser: 'https://purl.imsglobal.org/spec/lti/scope/eula/user',
  eulaDeployment: 'https://purl.imsglobal.org/spec/lti/scope/eula/deployment',
  /** Assignment and Grade Services 2.0: https://www.imsglobal.org/spec/lti-ags/v2p0/#scopes */
  agsLineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  agsLineItemRead: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  agsResult: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  agsScore: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  /** Names and Role Provisioning Services 2.0 */
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

/** Blackboard's reference tool asks for these names of the same scopes (server/src/app/processor.js). */
const SCOPE_ALIASES: Partial<Record<keyof typeof SCOPE, readonly string[]>> = {
  assetRead: ['https://purl.imsglobal.org/spec/lti-ap/scope/asset.readonly'],
  report: ['https://purl.imsglobal.org/spec/lti-ap/scope/report'],
};

/**
 * The name of a scope to ask the LMS for, as its own claim lists it (`scope` of assetservice or assetreport): the
 * first listed name that is one of the scope's known names, else the standard name. An unknown name is never asked.
 */
export function scopeAsListed(scope: keyof typeof SCOPE, listed: unknown): string {
  const known = [SCOPE[scope], ...(SCOPE_ALIASES[scope] ?? [])];
  const names = Array.isArray(listed) ? listed.filter((name): name is string => typeof name === 'string') : [];
  return names.find((name) => known.includes(name)) ?? SCOPE[scope];
}

/** An address an LMS names for the tool to fetch from or post to: http(s) only, never file:, ftp: or javascript:. */
export const httpAddress = z
  .string()
  .max(4096)
  .refine((value) => !value.includes('\0'), 'holds a NUL character')
  .pipe(z.string().url())
  .refine((value) => /^https?:\/\//i.test(value), 'is not an http(s) address');

/** The Asset Report Service claim: where reports go, and the scope the LMS names for posting them. */
export const assetReportClaim = z.object({
  report_url: httpAddress,
  scope: z.array(z.string().max(1000)).max(20).optional().catch(undefined),
});

export interface ReportAddress {
  url: string;
  /** The scope to ask for, as the LMS names it (scopeAsListed). */
  scope: string;
}

/** The report address a verified payload (read under the standard names) names, or null when it names none usable. */
export function reportAddressOf(payload: Record<string, unknown>): ReportAddress | null {
  const parsed = assetReportClaim.safeParse(payload[CLAIM.assetReport]);
  return parsed.success ? { url: parsed.data.report_url, scope: scopeAsListed('report', parsed.data.scope) } : null;
}
