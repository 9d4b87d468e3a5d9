// The addresses of the LMS's own assignment pages (assignment-page.ts) and of its SpeedGrader (speedgrader.ts), which
// link to each other.
import type { PlatformContext } from './context.js';

export const ACTIVITIES_PATH = '/activities';
export const SUBMISSIONS_PATH = '/submissions';

export const activityUrl = (platform: PlatformContext, activityId: string) =>
  `${platform.baseUrl}${ACTIVITIES_PATH}/${encodeURIComponent(activityId)}`;

export const speedGraderUrl = (platform: PlatformContext, submissionId: string, viewerId: string) =>
  `${platform.baseUrl}${SUBMISSIONS_PATH}/${encodeURIComponent(submissionId)}?${new URLSearchParams({ viewer: viewerId })}`;
