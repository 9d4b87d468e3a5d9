// The document processors attached to the LMS's own assignments: what a deep-linking response for an assignment's
// "Add document processing app" leaves behind, checked as Canvas checks it (app/models/lti/asset_processor.rb):
// only `ltiAssetProcessor` items, each with a title, and a report address when it has one.
import { randomBytes } from 'node:crypto';
import type { PlatformContext } from './context.js';
import type { AttachedProcessor } from './state.js';

const isUrl = (value: unknown) =>
  typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
const textRecord = (value: unknown): Record<string, string> =>
  value && typeof value === 'object'
    ? (Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'string')) as Record<string, string>)
    : {};

/** Attaches the response's processors to the activity; a sentence when one is not acceptable (nothing attached then). */
export function attachAssetProcessors(
  platform: PlatformContext,
  activityId: string,
  items: Array<Record<string, unknown>>,
): string | null {
  const attached: AttachedProcessor[] = [];
  for (const item of items) {
    if (item.type !== 'ltiAssetProcessor')
      return `An assignment's document processor must be an ltiAssetProcessor item, not ${String(item.type)}.`;
    if (typeof item.title !== 'string' || item.title.trim() === '') return 'A document processor needs a title.';
    if (item.url !== undefined && !isUrl(item.url)) return "The document processor's url is not an http(s) address.";
    const report = item.report as Record<string, unknown> | undefined;
    if (
      report !== undefined &&
      (typeof report !== 'object' || report === null || (report.url !== undefined && !isUrl(report.url)))
    ) {
      return "The document processor's report url is not an http(s) address.";
    }
    attached.push({
      id: `ap-${randomBytes(4).toString('hex')}`,
      activityId,
      title: item.title,
      text: typeof item.text === 'string' ? item.text : null,
      url: typeof item.url === 'string' ? item.url : null,
      custom: textRecord(item.custom),
      report: report
        ? { url: typeof report.url === 'string' ? report.url : null, custom: textRecord(report.custom) }
        : null,
    });
  }
  platform.memory.assetProcessors.push(...attached);
  return null;
}
