// The emulator's HTML: the course page a person uses to launch the tool, and the auto-posting login form.
import type { Course, DevUser, ResourceLink, Score } from './state.js';

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The script that sends the form on; served as a file, so pages with a script-src 'self' policy run it. */
export const AUTO_POST_SCRIPT = "document.getElementById('launch').submit();\n";

/**
 * The LMS side of LTI platform storage (https://www.imsglobal.org/spec/lti-pm-s/v0p1): the launch page frames the
 * tool and answers its lti.put_data / lti.get_data messages, keeping values per tool origin for this browser tab.
 */
export const PLATFORM_STORAGE_SCRIPT = `(function () {
  var frame = document.getElementById('tool-frame');
  window.addEventListener('message', function (event) {
    var data = event.data || {};
    if (!frame || event.source !== frame.contentWindow || typeof data.subject !== 'string') return;
    var reply = { message_id: data.message_id, key: data.key };
    var slot = 'lti-storage\\n' + event.origin + '\\n' + data.key;
    if (data.subject === 'lti.capabilities') {
      reply = { subject: 'lti.capabilities.response', message_id: data.message_id, supported_messages: [{ subject: 'lti.put_data' }, { subject: 'lti.get_data' }] };
    } else if (data.subject === 'lti.put_data') {
      sessionStorage.setItem(slot, String(data.value));
      reply.subject = 'lti.put_data.response';
      reply.value = data.value;
    } else if (data.subject === 'lti.get_data') {
      var value = sessionStorage.getItem(slot);
      reply.subject = 'lti.get_data.response';
      if (value === null) reply.error = { code: 'bad_request', message: 'no such key' };
      else reply.value = value;
    } else {
      return;
    }
    event.source.postMessage(reply, event.origin);
  });
})();
`;

/** The page a launch opens in: the tool framed, as an LMS shows it, with platform storage. */
export function renderFrame(loginUrl: string, scriptUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev platform: tool</title></head>
<body style="margin: 0"><iframe id="tool-frame" title="The tool" src="${escapeHtml(loginUrl)}" style="border: 0; width: 100vw; height: 100vh"></iframe>
<script src="${escapeHtml(scriptUrl)}"></script></body></html>`;
}

/** The form_post response of the OIDC login (OpenID Connect Form Post Response Mode), sent on by itself. */
export function renderAutoPost(action: string, fields: Record<string, string>, scriptUrl: string): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Opening the tool</title></head><body>
<form id="launch" method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue to the tool</button></noscript></form>
<script src="${escapeHtml(scriptUrl)}"></script></body></html>`;
}

/**
 * The registration panel's script: waits for the tool's close message from the panel (and from nowhere else), then
 * closes the panel and says so, as Moodle does before it lists the new tool.
 */
export const REGISTRATION_PANEL_SCRIPT = `window.addEventListener('message', function (event) {
  var panel = document.getElementById('registration-panel');
  if (!panel || event.source !== panel.contentWindow) return;
  if (!event.data || event.data.subject !== 'org.imsglobal.lti.close') return;
  panel.remove();
  var status = document.getElementById('registration-status');
  status.textContent = 'The tool closed its registration panel.';
  document.body.setAttribute('data-closed', 'true');
});
`;

/** The administrator's "register a tool by URL" page with the tool's registration page in a panel. */
export function renderRegistrationPanel(panelUrl: string, scriptUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev platform: register a tool</title>
<script src="${escapeHtml(scriptUrl)}"></script></head><body>
<h1>Register a tool (LTI Dynamic Registration)</h1>
<p id="registration-status" role="status">The tool's registration page is open below; the platform waits for it to close.</p>
<iframe id="registration-panel" title="The tool's registration" src="${escapeHtml(panelUrl)}" width="900" height="500"></iframe>
</body></html>`;
}

export function renderHome(view: {
  registerPage: string | null;
  course: Course;
  users: DevUser[];
  links: ResourceLink[];
  gradebook: Array<Score & { label: string }>;
  loginUrl(userId: string, resourceLinkId: string | undefined, messageType: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest'): string;
  /** The same launch framed, with platform storage (as Canvas launches). */
  frameUrl(userId: string, resourceLinkId: string | undefined, messageType: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest'): string;
}): string {
  const instructors = view.users.filter((u) => u.roles.some((r) => r.endsWith('#Instructor') || r.endsWith('#Administrator')));
  const linkRows = view.links
    .map((link) => `<li><strong>${escapeHtml(link.title)}</strong>: ${view.users
      .map((u) => `<a href="${escapeHtml(view.loginUrl(u.id, link.id, 'LtiResourceLinkRequest'))}">open as ${escapeHtml(u.name)}</a> (<a href="${escapeHtml(view.frameUrl(u.id, link.id, 'LtiResourceLinkRequest'))}">framed</a>)`)
      .join(' · ')}</li>`)
    .join('');
  const addButtons = instructors
    .map((u) => `<a href="${escapeHtml(view.loginUrl(u.id, undefined, 'LtiDeepLinkingRequest'))}">Add the tool to the course (deep linking) as ${escapeHtml(u.name)}</a>`)
    .join('<br>');
  const grades = view.gradebook
    .map((g) => `<tr><td>${escapeHtml(g.label)}</td><td>${escapeHtml(view.users.find((u) => u.id === g.userId)?.name ?? g.userId)}</td><td>${g.scoreGiven === null ? '—' : escapeHtml(`${g.scoreGiven} / ${g.scoreMaximum}`)}</td><td>${escapeHtml(g.gradingProgress)}</td><td>${escapeHtml(g.comment ?? '')}</td><td>${escapeHtml(g.timestamp)}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dev platform: ${escapeHtml(view.course.title)}</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: auto; padding: 1rem">
<h1>${escapeHtml(view.course.title)} <small>(dev platform)</small></h1>
<p>An LTI 1.3 platform emulator for trying the tool without an LMS.</p>
<h2>Activities</h2>${view.links.length ? `<ul>${linkRows}</ul>` : '<p>No activity yet: add the tool first.</p>'}
<p>${addButtons}</p>
${view.registerPage ? `<h2>Administration</h2><p><a href="${escapeHtml(view.registerPage)}">Register the tool by LTI Dynamic Registration</a> (as an LMS administrator does; the tool answers in a panel of this page, and refuses when this platform is registered already, as it is when the tool mounts it at /dev).</p>` : ''}
<h2>Gradebook</h2>
${grades ? `<table><thead><tr><th>Column</th><th>Student</th><th>Score</th><th>Progress</th><th>Comment</th><th>Timestamp</th></tr></thead><tbody>${grades}</tbody></table>` : '<p>No scores yet.</p>'}
</body></html>`;
}
