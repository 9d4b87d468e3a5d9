// An assignment of the LMS's own, as Canvas shows it to a person trying the Asset Processor (lti-notes §4, 2.3
// steps 2 and 5): the teacher's "Add document processing app" (a deep-linking launch that takes only an
// ltiAssetProcessor, with the assignment and the notification service's claims: id-token.ts), the processors
// attached, the student's submit form (file uploads and a text entry, which become assets and a notice), and the
// submissions with their SpeedGrader views.
import type { Request, Response } from 'express';
import type { MountConcern, PlatformContext } from './context.js';
import { FormRefused, MAX_FILES, readUploadForm } from './form-upload.js';
import { escapeHtml, htmlPage, messagePage } from './html.js';
import { timeHtml } from './clock.js';
import { SubmissionRefused, submitToActivity } from './lms-submissions.js';
import { loginInitiationUrl } from './oidc.js';
import { ACTIVITIES_PATH, activityUrl, speedGraderUrl } from './page-urls.js';
import { teaches, type Activity } from './state.js';

/** The LMS's assignments: those of the course, and any a processor was attached to or a student submitted to. */
export function knownActivities(platform: PlatformContext): Activity[] {
  const { memory } = platform;
  const ids = new Set([
    ...memory.activities.keys(),
    ...memory.assetProcessors.map((p) => p.activityId),
    ...[...memory.lmsSubmissions.values()].map((s) => s.activityId),
  ]);
  return [...ids].map((id) => memory.activities.get(id) ?? { id, title: id });
}

const activityOf = (platform: PlatformContext, id: string) =>
  knownActivities(platform).find((activity) => activity.id === id);

function renderActivity(platform: PlatformContext, activity: Activity): string {
  const { memory } = platform;
  const people = [...memory.people.values()];
  const processors = memory.assetProcessors.filter((p) => p.activityId === activity.id);
  const submissions = [...memory.lmsSubmissions.values()].filter((s) => s.activityId === activity.id);
  const name = (userId: string) => memory.people.get(userId)?.name ?? userId;
  const addLinks = people
    .filter(teaches)
    .map(
      (u) =>
        `<a class="button" href="${escapeHtml(loginInitiationUrl(platform, { userId: u.id, messageType: 'LtiDeepLinkingRequest', activity }))}">Add document processing app as ${escapeHtml(u.name)}</a>`,
    )
    .join(' ');
  const processorList = processors.length
    ? `<ul>${processors.map((p) => `<li><strong>${escapeHtml(p.title)}</strong>${p.text ? `: ${escapeHtml(p.text)}` : ''} <span class="muted">(reports open at ${escapeHtml(p.report?.url ?? p.url ?? platform.tool.launchUrl)})</span></li>`).join('')}</ul>`
    : '<p>No document processing app is attached yet.</p>';
  const submitLinks = people
    .filter((u) => !teaches(u))
    .map(
      (u) =>
        `<li><a href="${escapeHtml(`${activityUrl(platform, activity.id)}/submit?${new URLSearchParams({ user: u.id })}`)}">Submit as ${escapeHtml(u.name)}</a></li>`,
    )
    .join('');
  const viewers = people.filter(teaches);
  const rows = submissions
    .map(
      (s) =>
        `<tr><td>${escapeHtml(name(s.userId))}</td><td>${escapeHtml(s.id)}</td><td>${timeHtml(s.submittedAt)}</td><td>${s.assetIds.length}</td><td>${viewers
          .map(
            (v) =>
              `<a href="${escapeHtml(speedGraderUrl(platform, s.id, v.id))}">SpeedGrader as ${escapeHtml(v.name)}</a>`,
          )
          .join(
            ' · ',
          )} · <a href="${escapeHtml(speedGraderUrl(platform, s.id, s.userId))}">the student's view</a></td></tr>`,
    )
    .join('');
  return htmlPage(
    platform.baseUrl,
    `Assignment: ${activity.title}`,
    `<p><a href="${escapeHtml(platform.baseUrl)}/">${escapeHtml(platform.course.title)}</a></p>
<h1>${escapeHtml(activity.title)} <small class="muted">(an assignment of the LMS: file upload and text entry)</small></h1>
<h2>Document processing</h2>${processorList}<p>${addLinks}</p>
<h2>Submit</h2><ul>${submitLinks}</ul>
<h2>Submissions</h2>${rows ? `<table><thead><tr><th>Student</th><th>Submission</th><th>Submitted</th><th>Assets</th><th>Open</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No submission yet.</p>'}`,
  );
}

function renderSubmitForm(platform: PlatformContext, activity: Activity, userId: string, userName: string): string {
  return htmlPage(
    platform.baseUrl,
    `Submit: ${activity.title}`,
    `<p><a href="${escapeHtml(activityUrl(platform, activity.id))}">${escapeHtml(activity.title)}</a></p>
<h1>Submit ${escapeHtml(activity.title)}</h1><p>Submitting as ${escapeHtml(userName)}. Files, a text entry, or both.</p>
<form method="post" action="${escapeHtml(activityUrl(platform, activity.id))}/submit" enctype="multipart/form-data">
<input type="hidden" name="user" value="${escapeHtml(userId)}">
<label for="files">Files (at most ${MAX_FILES})</label><input id="files" type="file" name="files" multiple>
<label for="text">Text entry</label><textarea id="text" name="text"></textarea>
<p><button type="submit">Submit assignment</button></p></form>`,
  );
}

/** What the student typed, as the LMS's editor keeps a text entry: HTML paragraphs. */
const textEntryHtml = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');

const sentence = (platform: PlatformContext, res: Response, status: number, title: string, text: string) =>
  void res.status(status).send(messagePage(platform.baseUrl, title, text, status >= 400));

export const mountAssignmentPages: MountConcern = (router, platform) => {
  const { memory } = platform;
  router.get(`${ACTIVITIES_PATH}/:activityId`, (req: Request, res: Response) => {
    const activity = activityOf(platform, String(req.params.activityId));
    if (!activity) return sentence(platform, res, 404, 'No such assignment', 'This course has no such assignment.');
    res.send(renderActivity(platform, activity));
  });

  router.get(`${ACTIVITIES_PATH}/:activityId/submit`, (req: Request, res: Response) => {
    const activity = activityOf(platform, String(req.params.activityId));
    const user = memory.people.get(String(req.query.user ?? ''));
    if (!activity) return sentence(platform, res, 404, 'No such assignment', 'This course has no such assignment.');
    if (!user || teaches(user))
      return sentence(platform, res, 403, 'Students only', 'Only a student of the course submits an assignment.');
    res.send(renderSubmitForm(platform, activity, user.id, user.name));
  });

  router.post(`${ACTIVITIES_PATH}/:activityId/submit`, async (req: Request, res: Response) => {
    const activity = activityOf(platform, String(req.params.activityId));
    if (!activity) return sentence(platform, res, 404, 'No such assignment', 'This course has no such assignment.');
    let form;
    try {
      form = await readUploadForm(req);
    } catch (error) {
      if (error instanceof FormRefused) return sentence(platform, res, error.status, 'Not submitted', error.message);
      throw error;
    }
    const user = memory.people.get(form.fields.user ?? '');
    if (!user || teaches(user))
      return sentence(platform, res, 403, 'Students only', 'Only a student of the course submits an assignment.');
    const text = textEntryHtml(form.fields.text ?? '');
    try {
      const submitted = await submitToActivity(platform, {
        activityId: activity.id,
        userId: user.id,
        files: form.files,
        ...(text ? { text } : {}),
      });
      const answer =
        submitted.status === 0 ? submitted.body : `The tool's notice handler answered ${submitted.status}.`;
      res.status(201).send(
        htmlPage(
          platform.baseUrl,
          'Submitted',
          `<h1>Submitted</h1><p>${escapeHtml(activity.title)}: submission ${escapeHtml(submitted.submissionId)}, ${submitted.assets.length} asset(s). ${escapeHtml(answer)}</p>
<p><a href="${escapeHtml(speedGraderUrl(platform, submitted.submissionId, user.id))}">See the submission and its reports</a></p>`,
        ),
      );
    } catch (error) {
      if (error instanceof SubmissionRefused)
        return sentence(platform, res, error.status, 'Not submitted', error.message);
      throw error;
    }
  });
};
