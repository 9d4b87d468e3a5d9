// The /dev page: the demo course as a person sees it in an LMS, with a launch link for each user on each activity
// (plain and framed), the deep-linking "add the tool" links for instructors, the LMS's own assignments (where a
// document processing app is added), the administrator's registration link, and the gradebook the tool's scores
// arrive in, where each grade opens the student's submission in the tool as Moodle's grade analysis does
// (submission-review.ts).
import type { GradebookRow } from './ags.js';
import { renderGradebook } from './ags-gradebook.js';
import { knownActivities } from './assignment-page.js';
import { activityUrl } from './page-urls.js';
import type { MountConcern } from './context.js';
import { escapeHtml, htmlPage } from './html.js';
import type { LaunchMessageType } from './id-token.js';
import { loginInitiationUrl } from './oidc.js';
import { SUBMISSION_REVIEW_MESSAGE, reviewTarget } from './submission-review.js';
import { framedLaunchUrl } from './platform-storage.js';
import { registerToolPageUrl } from './registration.js';
import { teaches, type Course, type DevUser, type ResourceLink } from './state.js';

interface HomeView {
  baseUrl: string;
  registerPage: string | null;
  course: Course;
  users: DevUser[];
  links: ResourceLink[];
  /** The LMS's own assignments, where a document processing app is added and students submit. */
  activities: Array<{ title: string; url: string }>;
  /** The gradebook's tables, given the grade analysis links of a cell. */
  gradebook(reviewLinks: (row: GradebookRow) => string): string;
  loginUrl(userId: string, resourceLinkId: string | undefined, messageType: LaunchMessageType): string;
  /** The same launch framed, with platform storage (as Canvas launches). */
  frameUrl(userId: string, resourceLinkId: string | undefined, messageType: LaunchMessageType): string;
  /** Grade analysis of a grade: the submission review of the column's resource link for its student; null without a link. */
  reviewUrl(viewerId: string, lineItemId: string, studentId: string): string | null;
}

function renderHome(view: HomeView): string {
  const instructors = view.users.filter(teaches);
  const linkRows = view.links
    .map(
      (link) =>
        `<li><strong>${escapeHtml(link.title)}</strong>: ${view.users
          .map(
            (u) =>
              `<a href="${escapeHtml(view.loginUrl(u.id, link.id, 'LtiResourceLinkRequest'))}">open as ${escapeHtml(u.name)}</a> (<a href="${escapeHtml(view.frameUrl(u.id, link.id, 'LtiResourceLinkRequest'))}">framed</a>)`,
          )
          .join(' · ')}</li>`,
    )
    .join('');
  const addButtons = instructors
    .map(
      (u) =>
        `<a href="${escapeHtml(view.loginUrl(u.id, undefined, 'LtiDeepLinkingRequest'))}">Add the tool to the course (deep linking) as ${escapeHtml(u.name)}</a>`,
    )
    .join('<br>');
  // Moodle's view.php?action=gradeReport launches whoever opens it: the links for learners show what the tool does then.
  const reviewLinks = (g: GradebookRow) => {
    const links = view.users
      .map((u) => ({ u, url: view.reviewUrl(u.id, g.lineItemId, g.userId) }))
      .filter((l) => l.url !== null);
    return links.map(({ u, url }) => `<a href="${escapeHtml(url!)}">as ${escapeHtml(u.name)}</a>`).join(' · ');
  };
  // The emulator's stylesheet, a file: the tool's CSP, which /dev is served under, allows no inline style.
  return htmlPage(
    view.baseUrl,
    `Dev platform: ${view.course.title}`,
    `<h1>${escapeHtml(view.course.title)} <small>(dev platform)</small></h1>
<p>An LTI 1.3 platform emulator for trying the tool without an LMS.</p>
<h2>Activities</h2>${view.links.length ? `<ul>${linkRows}</ul>` : '<p>No activity yet: add the tool first.</p>'}
<p>${addButtons}</p>
${view.activities.length ? `<h2>Assignments of the LMS (document processing)</h2><ul>${view.activities.map((a) => `<li><a href="${escapeHtml(a.url)}">${escapeHtml(a.title)}</a></li>`).join('')}</ul>` : ''}
${view.registerPage ? `<h2>Administration</h2><p><a href="${escapeHtml(view.registerPage)}">Register the tool by LTI Dynamic Registration</a> (as an LMS administrator does; the tool answers in a panel of this page, and refuses when this platform is registered already, as it is when the tool mounts it at /dev).</p>` : ''}
<h2>Gradebook</h2>
${view.gradebook(reviewLinks)}`,
  );
}

export const mountPage: MountConcern = (router, platform) => {
  router.get('/', (_req, res) => {
    res.send(
      renderHome({
        baseUrl: platform.baseUrl,
        registerPage: registerToolPageUrl(platform),
        course: platform.course,
        users: [...platform.memory.people.values()],
        links: [...platform.memory.links.values()],
        // The LMS's own assignments are where an Asset Processor is attached: offered only when the tool is one.
        activities: (platform.tool.assetProcessor === false ? [] : knownActivities(platform)).map((activity) => ({
          title: activity.title,
          url: activityUrl(platform, activity.id),
        })),
        gradebook: (reviewLinks) => renderGradebook(platform, [...platform.memory.people.values()], reviewLinks),
        loginUrl: (userId, resourceLinkId, messageType) =>
          loginInitiationUrl(platform, { userId, resourceLinkId, messageType }),
        frameUrl: (userId, resourceLinkId, messageType) =>
          framedLaunchUrl(platform, userId, resourceLinkId, messageType),
        reviewUrl: (viewerId, lineItemId, studentId) => {
          const link = platform.memory.links.get(platform.memory.lineItems.get(lineItemId)?.resourceLinkId ?? '');
          if (!link) return null;
          const targetLinkUri = reviewTarget(platform, link).url;
          return loginInitiationUrl(platform, {
            userId: viewerId,
            resourceLinkId: link.id,
            messageType: SUBMISSION_REVIEW_MESSAGE,
            forUserId: studentId,
            targetLinkUri,
          });
        },
      }),
    );
  });
};
