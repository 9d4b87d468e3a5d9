// The settings page: the due date on the reader's own clock, the "Advanced" part opened when the browser finds a
// field there to correct, what a change of the gradebook choice will post said as it is chosen, and, after a save,
// asking until the checking service has the settings (or refused them).
import { clockFor, fieldValue, readerZone, zoneName } from './clock.js';

(function () {
  const due = document.getElementById('dueAt');
  const zoneField = document.getElementById('dueAtZone');
  const zoneNote = document.getElementById('dueAt-zone');
  if (due && zoneField && zoneNote) {
    // The page comes with the due date on UTC's clock; the browser knows the reader's zone, the server does not.
    const zone = readerZone();
    if (due.dataset.instant) due.value = fieldValue(due.dataset.instant, zone);
    zoneField.value = zone;
    const words = JSON.parse(zoneNote.dataset.words || '{}');
    if (words.zone) zoneNote.textContent = words.zone.replace('{zone}', zoneName(zone));
    // The date as every page writes it (the one clock), whatever order the browser's date field shows its parts in.
    const reads = document.getElementById('dueAt-reads');
    const clock = clockFor(document.documentElement.lang || 'en', zone);
    const say = () => {
      const at = due.value ? new Date(due.value) : null;
      reads.hidden = !at || Number.isNaN(at.getTime());
      reads.textContent = reads.hidden ? '' : clock.format('minute', at);
    };
    if (reads) {
      say();
      due.addEventListener('input', say);
    }
  }

  const form = document.querySelector('form.settings-form');
  if (form) {
    // A field the browser refuses (an empty language) cannot be shown while its part is folded: unfold it.
    form.addEventListener(
      'invalid',
      (event) => {
        const part = event.target.closest('details');
        if (part) part.open = true;
      },
      true,
    );
  }

  // The gradebook choice: what saving the one chosen posts, said where a screen reader announces it (the page
  // says it beside each choice as well).
  const preview = document.getElementById('column-preview');
  if (preview) {
    for (const choice of document.querySelectorAll('input[name="gradeColumn"]')) {
      choice.addEventListener('change', () => {
        if (choice.checked) preview.textContent = choice.dataset.preview || '';
      });
    }
  }

  const status = document.getElementById('folder-status');
  if (!status || status.dataset.live !== 'true') return;
  const classes = { ready: 'ok', pending: 'warn', failed: 'notice' };
  let waited = 0;
  function ask() {
    fetch(status.dataset.statusUrl, { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        if (!body) return;
        status.textContent = body.text;
        status.className = classes[body.state] || 'warn';
        status.dataset.state = body.state;
        waited += 1;
        if (body.state === 'pending' && waited < 120) setTimeout(ask, 1500);
      })
      .catch(() => setTimeout(ask, 5000));
  }
  if (status.dataset.state === 'pending') setTimeout(ask, 1000);
})();
