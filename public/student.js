// The student page: the chosen file's name and size, a wrong type or a too large file refused before sending,
// upload with a progress bar (XMLHttpRequest reports upload progress; fetch does not), drag and drop, the arrival
// and its receipt on screen without reloading the page, and the result card and the attempts refreshed until every
// attempt is settled. A refusal is an error tied to the file input (role="alert", aria-invalid, aria-describedby),
// and the refused file is cleared. Without scripts the form posts as a plain form and the server answers with the
// page. Every word comes from the page (the form's data-words, in the page's language) and the server renders the
// card and the attempt list; numbers follow <html lang>, times the reader's clock (clock.js).
import { readerClock } from './clock.js';

(function () {
  const form = document.getElementById('submit-form');
  const list = document.getElementById('attempt-list');
  const cardSection = document.getElementById('result-section');
  const card = document.getElementById('result-card');
  if (!list) return;
  const language = document.documentElement.lang || 'en';

  const statusUrl = form ? form.dataset.statusUrl : list.dataset.statusUrl;

  let timer = null;
  let shownCard = null;
  function refresh() {
    if (!statusUrl) return;
    fetch(statusUrl, { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        if (!body) return;
        if (body.submissions.length > 0) list.innerHTML = body.html;
        // The card is a live region: it is replaced only when it says something new.
        if (card && body.card && body.card !== shownCard) {
          card.innerHTML = body.card;
          shownCard = body.card;
          cardSection.hidden = false;
        }
        const open = body.submissions.some((a) => !a.final);
        // The wait the arrival's message foretold is over once every attempt is settled.
        const soon = document.getElementById('message-soon');
        if (soon && !open) soon.remove();
        clearTimeout(timer);
        if (open) timer = setTimeout(refresh, 5000);
      })
      .catch(() => {
        timer = setTimeout(refresh, 15000);
      });
  }
  if (list.querySelector('tr[data-state="received"], tr[data-state="uploading"], tr[data-state="processing"]'))
    timer = setTimeout(refresh, 5000);

  if (!form) return;
  const words = JSON.parse(form.dataset.words || '{}');
  const input = document.getElementById('file');
  const info = document.getElementById('file-info');
  const bar = document.getElementById('upload-progress');
  const progress = document.getElementById('progress');
  const progressText = document.getElementById('progress-text');
  const message = document.getElementById('message');
  const error = document.getElementById('file-error');
  const receipt = document.getElementById('receipt');
  const receiptText = document.getElementById('receipt-text');
  const help = input.getAttribute('aria-describedby');
  const zone = document.getElementById('dropzone');
  const button = form.querySelector('button[type="submit"]');
  const maxBytes = Number(form.dataset.maxBytes);
  const extensions = (form.dataset.accept || '').split(',').filter(Boolean);
  const plurals = new Intl.PluralRules(language);
  const number = (value, digits) =>
    new Intl.NumberFormat(
      language,
      digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits },
    ).format(value);
  const percent = new Intl.NumberFormat(language, { style: 'percent' });
  const clock = readerClock();

  /** A message of the page's words with its {parameters} filled in. */
  function say(key, params) {
    const message = words[key];
    const text = typeof message === 'string' ? message : message[plurals.select(params.count)] || message.other;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
  }

  function size(bytes) {
    if (bytes >= 1024 * 1024) return say('megabytes', { size: number(bytes / 1024 / 1024, 1) });
    if (bytes >= 1024) return say('kilobytes', { size: number(Math.round(bytes / 1024)) });
    return say('bytes', { count: bytes, size: number(bytes) });
  }

  // The same limits as the server's (the page carries them from the assignment's settings); null: it may go.
  function refusal(file) {
    const name = file.name.toLowerCase();
    if (extensions.length > 0 && !extensions.some((ext) => name.endsWith(ext))) return words.wrongType;
    if (file.size > maxBytes) return words.tooLarge;
    if (file.size === 0) return words.empty;
    return null;
  }

  /** An error, announced; when the file is at fault, tied to the input and the file cleared so it cannot be sent. */
  function showError(text, fileAtFault) {
    message.textContent = '';
    const icon = document.createElement('span');
    icon.setAttribute('aria-hidden', 'true');
    icon.textContent = '⚠ ';
    error.replaceChildren(icon, text);
    if (!fileAtFault) return;
    input.value = '';
    info.hidden = true;
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'file-error ' + help);
  }

  function clearError() {
    error.replaceChildren();
    input.removeAttribute('aria-invalid');
    input.setAttribute('aria-describedby', help);
  }

  /** The chosen file, shown with its size; null when there is none or it is refused (then the error says why). */
  function chosen() {
    const file = input.files && input.files[0];
    if (!file) {
      info.hidden = true;
      return null;
    }
    const refused = refusal(file);
    if (refused) {
      showError(refused, true);
      return null;
    }
    clearError();
    info.textContent = file.name + ' · ' + size(file.size);
    info.hidden = false;
    return file;
  }

  input.addEventListener('change', chosen);
  ['dragenter', 'dragover'].forEach((type) =>
    zone.addEventListener(type, (e) => {
      e.preventDefault();
      zone.classList.add('over');
    }),
  );
  ['dragleave', 'drop'].forEach((type) => zone.addEventListener(type, () => zone.classList.remove('over')));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length > 0) {
      input.files = e.dataTransfer.files;
      chosen();
    }
  });

  function showProgress(value) {
    progress.value = value;
    progressText.textContent = percent.format(value / 100);
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!(input.files && input.files[0])) {
      showError(words.chooseFirst, true);
      return;
    }
    const file = chosen();
    if (!file) return;
    const data = new FormData();
    data.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', form.action);
    xhr.setRequestHeader('Accept', 'application/json');
    bar.hidden = false;
    showProgress(0);
    button.disabled = true;
    receipt.hidden = true;
    message.textContent = say('uploadingFile', { name: file.name });
    xhr.upload.addEventListener('progress', (p) => {
      if (p.lengthComputable) showProgress(Math.round((p.loaded / p.total) * 100));
    });
    xhr.addEventListener('load', () => {
      let body;
      try {
        body = JSON.parse(xhr.responseText);
      } catch (err) {
        body = {};
      }
      button.disabled = false;
      bar.hidden = true;
      if (xhr.status === 200 || xhr.status === 201) {
        showProgress(100);
        const time = clock.format('minute', body.receivedAt);
        message.textContent = say(body.duplicate ? 'duplicate' : 'arrived', {
          name: body.fileName,
          time: time,
          attempt: number(body.attempt),
        });
        if (!body.duplicate) {
          // How long a result takes, said only until it has come (refresh() removes it).
          const soon = document.createElement('span');
          soon.id = 'message-soon';
          soon.textContent = ' ' + words.soon;
          message.append(soon);
        }
        receiptText.textContent = say('receipt', {
          id: body.submissionId,
          sha256: body.sha256,
          size: say('bytes', { count: body.size, size: number(body.size) }),
        });
        receipt.hidden = false;
        form.reset();
        info.hidden = true;
        refresh();
      } else if (xhr.status === 413 || xhr.status === 415 || xhr.status === 422) {
        // The file itself was refused (too large, not a type the assignment takes): what is wrong, then what to do.
        showError((body.error || words.failed) + ' ' + words.chooseAnother, true);
      } else {
        showError(body.error || words.failed, false);
      }
    });
    xhr.addEventListener('error', () => {
      button.disabled = false;
      bar.hidden = true;
      showError(words.connectionLost, false);
    });
    xhr.send(data);
  });
})();
