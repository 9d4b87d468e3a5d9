// A report opens in a new tab, which carries no ltik and (in an LMS iframe) no cookie: once the asker is allowed,
// the browser goes on to a short-lived address signed with the tool's key, which names the submission, the kind
// and the time it lapses, and needs nothing else.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReportKind } from './kinds.js';

/** Long enough to open the tab; short enough that a copied address soon stops working. */
const LINK_LIFETIME_SECONDS = 300;

function signature(secret: string, submissionId: string, kind: ReportKind, expires: number): string {
  return createHmac('sha256', `reports:${secret}`).update(`${submissionId}:${kind}:${expires}`).digest('base64url');
}

/** The signed address of a report, good until `expires` (seconds since the epoch). */
export function signedReportPath(secret: string, submissionId: string, kind: ReportKind, expires: number): string {
  return `/reports/${submissionId}/${kind}/file?expires=${expires}&signature=${signature(secret, submissionId, kind, expires)}`;
}

/** A report's signed address from now on. */
export function freshReportPath(secret: string, submissionId: string, kind: ReportKind, now = Date.now()): string {
  return signedReportPath(secret, submissionId, kind, Math.floor(now / 1000) + LINK_LIFETIME_SECONDS);
}

/** Whether the link was signed with the key for this report and has not lapsed. */
export function validReportLink(
  secret: string,
  link: { submissionId: string; kind: ReportKind; expires: number; signature: string },
  now = Date.now(),
): boolean {
  const expected = Buffer.from(signature(secret, link.submissionId, link.kind, link.expires));
  const given = Buffer.from(link.signature);
  return expected.length === given.length && timingSafeEqual(expected, given) && link.expires >= now / 1000;
}
