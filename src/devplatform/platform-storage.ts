// A launch as an LMS shows it: the tool in a frame of the platform's page, which plays the LMS's part of LTI platform
// storage (https://www.imsglobal.org/spec/lti-pm-s/v0p1) for the tool's OIDC state when its cookies are blocked.
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

/** The page a launch opens in: the tool framed, with platform storage. */
function renderFrame(loginUrl: string, scriptUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev platform: tool</title></head>
<body style="margin: 0"><iframe id="tool-frame" title="The tool" src="${escapeHtml(loginUrl)}" style="border: 0; width: 100vw; height: 100vh"></iframe>
<script src="${escapeHtml(scriptUrl)}"></script></body></html>`;
}

/** The framed launch's address (the /dev page links it beside each plain launch). */
export function framedLaunchUrl(platform: PlatformContext, userId: string, resourceLinkId: string | undefined, messageType: LaunchMessageType): string {
  return `${platform.issuer}/frame?${new URLSearchParams({ user: userId, type: messageType, ...(resourceLinkId ? { link: resourceLinkId } : {}) })}`;
}

export const mountFramedLaunch: MountConcern = (router, platform) => {
  router.get('/platform-storage.js', (_req, res) => {
    res.type('text/javascript').send(PLATFORM_STORAGE_SCRIPT);
  });

  router.get('/frame', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    if (!q.user || !platform.memory.people.has(q.user)) return void res.status(400).send('<!doctype html><title>Unknown user</title><p>No such user.</p>');
    const messageType = q.type === 'LtiDeepLinkingRequest' ? 'LtiDeepLinkingRequest' : 'LtiResourceLinkRequest';
    const login = loginInitiationUrl(platform, { userId: q.user, messageType, storageTarget: '_parent', ...(q.link ? { resourceLinkId: q.link } : {}) });
    res.send(renderFrame(login, `${platform.issuer}/platform-storage.js`));
  });
};
