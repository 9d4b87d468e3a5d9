// A launch as an LMS shows it: the tool in a frame of the platform's page, which plays the LMS's part of LTI platform
// storage (https://www.imsglobal.org/spec/lti-pm-s/v0p1) for the tool's OIDC state when its cookies are blocked, and,
// as Canvas does, fits the frame to the height the tool posts (lti.frameResize) and scrolls to its top on request
// (lti.scrollToTop). With `width` and `height` the frame has that size; with `resize=off` it keeps its height and
// ignores both messages, as Moodle does; with `panel` a side panel of that width stands beside the frame, as
// Moodle's course index (285 px) does on a wide screen.
import type { MountConcern, PlatformContext } from './context.js';
import { escapeHtml } from './html.js';
import type { LaunchMessageType } from './id-token.js';
import { loginInitiationUrl } from './oidc.js';

/**
 * The LMS side of platform storage: the launch page frames the tool and answers its lti.put_data / lti.get_data
 * messages, keeping values per tool origin for this browser tab.
 */
const PLATFORM_STORAGE_SCRIPT = `(function () {
  var frame = document.getElementById('tool-frame');
  // The frame's size comes as data, set here: the page's CSP (style-src 'self') refuses a style attribute.
  document.body.style.margin = '0';
  frame.style.border = '0';
  frame.style.display = 'block';
  frame.style.width = frame.dataset.width ? frame.dataset.width + 'px' : '100vw';
  frame.style.height = frame.dataset.height ? frame.dataset.height + 'px' : '100vh';
  var panel = document.getElementById('course-index');
  if (panel) {
    document.body.style.display = 'flex';
    // Without a width the frame takes what the panel leaves of the window (100vw beside it cut its right side off).
    frame.style.flex = frame.dataset.width ? 'none' : '1 1 0';
    if (!frame.dataset.width) frame.style.width = 'auto';
    frame.style.minWidth = '0';
    panel.style.flex = 'none';
    panel.style.boxSizing = 'border-box';
    panel.style.width = panel.dataset.width + 'px';
    panel.style.padding = '16px';
    panel.style.font = '15px Arial, "Liberation Sans", sans-serif';
    panel.style.borderRight = '1px solid #dee2e6';
  }
  function resizes() { return frame.dataset.resize === 'true'; }
  window.addEventListener('message', function (event) {
    var data = event.data || {};
    if (!frame || event.source !== frame.contentWindow || typeof data.subject !== 'string') return;
    var reply = { message_id: data.message_id, key: data.key };
    var slot = 'lti-storage\\n' + event.origin + '\\n' + data.key;
    if (data.subject === 'lti.capabilities') {
      var supported = [{ subject: 'lti.put_data' }, { subject: 'lti.get_data' }];
      if (resizes()) supported.push({ subject: 'lti.frameResize' }, { subject: 'lti.scrollToTop' });
      reply = { subject: 'lti.capabilities.response', message_id: data.message_id, supported_messages: supported };
    } else if (data.subject === 'lti.frameResize' && resizes()) {
      var height = Number(data.height);
      if (isFinite(height) && height > 0) frame.style.height = Math.min(height, 100000) + 'px';
      return;
    } else if (data.subject === 'lti.scrollToTop' && resizes()) {
      window.scrollTo(0, frame.getBoundingClientRect().top + window.scrollY);
      return;
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

/** The frame's size: pixels, or the whole window when not given; whether it follows lti.frameResize. */
export interface FrameLook {
  width?: number;
  height?: number;
  resize: boolean;
  /** A side panel's width beside the frame (Moodle's course index); none when not given. */
  panel?: number;
}

/** The page a launch opens in: the tool framed, with platform storage. */
function renderFrame(loginUrl: string, scriptUrl: string, look: FrameLook): string {
  const size = `${look.width ? ` data-width="${look.width}"` : ''}${look.height ? ` data-height="${look.height}"` : ''}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev platform: tool</title></head>
<body>${look.panel ? `<nav id="course-index" aria-label="Course index" data-width="${look.panel}"><p>Course index</p><ul><li>General</li><li>Essay</li></ul></nav>` : ''}<iframe id="tool-frame" title="The tool" src="${escapeHtml(loginUrl)}" data-resize="${look.resize}"${size}></iframe>
<script src="${escapeHtml(scriptUrl)}"></script></body></html>`;
}

/** The framed launch's address (the /dev page links it beside each plain launch). */
export function framedLaunchUrl(
  platform: PlatformContext,
  userId: string,
  resourceLinkId: string | undefined,
  messageType: LaunchMessageType,
): string {
  return `${platform.baseUrl}/frame?${new URLSearchParams({ user: userId, type: messageType, ...(resourceLinkId ? { link: resourceLinkId } : {}) })}`;
}

export const mountFramedLaunch: MountConcern = (router, platform) => {
  router.get('/platform-storage.js', (_req, res) => {
    res.type('text/javascript').send(PLATFORM_STORAGE_SCRIPT);
  });

  router.get('/frame', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    if (!q.user || !platform.memory.people.has(q.user))
      return void res.status(400).send('<!doctype html><title>Unknown user</title><p>No such user.</p>');
    const messageType = q.type === 'LtiDeepLinkingRequest' ? 'LtiDeepLinkingRequest' : 'LtiResourceLinkRequest';
    const login = loginInitiationUrl(platform, {
      userId: q.user,
      messageType,
      storageTarget: '_parent',
      ...(q.link ? { resourceLinkId: q.link } : {}),
    });
    const pixels = (value: string | undefined) => (value && /^\d{2,5}$/.test(value) ? Number(value) : undefined);
    const look: FrameLook = {
      width: pixels(q.width),
      height: pixels(q.height),
      resize: q.resize !== 'off',
      panel: pixels(q.panel),
    };
    res.send(renderFrame(login, `${platform.baseUrl}/platform-storage.js`, look));
  });
};
