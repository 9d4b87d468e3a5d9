// The emulator's clock, as an LMS's: a time on its pages is written on the reader's own clock, in their browser's
// language, with the zone named, as Moodle and Canvas write it in each user's zone. Without scripts a page reads the
// time on UTC's clock, named. A file because the tool's Content-Security-Policy, which /dev is served under, allows
// only its own scripts.
import type { MountConcern } from './context.js';
import { CLOCK_PATH, escapeHtml } from './html.js';

const SCRIPT = `const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const place = zone === 'UTC' || zone === 'Etc/UTC' ? 'UTC' : zone.split('/').pop().replace(/_/g, ' ');
const format = new Intl.DateTimeFormat(navigator.languages?.[0] || navigator.language || 'en', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
for (const time of document.querySelectorAll('time[datetime]')) time.textContent = format.format(new Date(time.dateTime)) + ' ' + place;
document.documentElement.dataset.clock = zone;
`;

/** A time as the emulator's pages show it: on UTC's clock until the page's script writes it on the reader's. */
export function timeHtml(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return escapeHtml(iso);
  return `<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export const mountClock: MountConcern = (router) => {
  router.get(CLOCK_PATH, (_req, res) => {
    res.type('text/javascript').setHeader('Cache-Control', 'no-store');
    res.send(SCRIPT);
  });
};
