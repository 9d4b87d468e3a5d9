// The student page: the chosen file's name and size, a wrong type or a too large file refused before sending,
// upload with a progress bar (XMLHttpRequest reports upload progress; fetch does not), drag and drop, the receipt
// on screen without reloading the page, and the status refreshed until every attempt is settled. Without scripts
// the form posts as a plain form and the server answers with the page. Every word comes from the page (the form's
// data-words, in the page's language) and the server renders the attempt list; numbers follow <html lang>.
(function () {
  const form = document.getElementById('submit-form');
  const list = document.getElementById('attempt-list');
  if (!list) return;
  const language = document.documentElement.lang || 'en';

  const statusUrl = form ? form.dataset.statusUrl : list.dataset.statusUrl;

  let timer = null;
  function refresh() {
    if (!statusUrl) return;
    fetch(statusUrl, { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        if (!body) return;
        if (body.submissions.length > 0) list.innerHTML = body.html;
        const open = body.submissions.some((a) => !a.final);
        clearTimeout(timer);
        if (open) timer = setTimeout(refresh, 5000);
      })
      .catch(() => { timer = setTimeout(refresh, 15000); });
  }
  if (list.querySelector('tr[data-state="received"], tr[data-state="uploading"], tr[data-state="processing"]')) timer = setTimeout(refresh, 5000);

  if (!form) return;
  const words = JSON.parse(form.dataset.words || '{}');
  const input = document.getElementById('file');
  const info = document.getElementById('file-info');
  const bar = document.getElementById('upload-progress');
  const progress = document.getElementById('progress');
  const progressText = document.getElementById('progress-text');
  const message = document.getElementById('message');
  const zone = document.getElementById('dropzone');
  const button = form.querySelector('button[type="submit"]');
  const maxBytes = Number(form.dataset.maxBytes);
  const extensions = (form.dataset.accept || '').split(',').filter(Boolean);
  const plurals = new Intl.PluralRules(language);
  const number = (value, digits) => new Intl.NumberFormat(language, digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  const percent = new Intl.NumberFormat(language, { style: 'percent' });

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

  function chosen() {
    const file = input.files && input.files[0];
    if (!file) { info.hidden = true; return null; }
    info.textContent = file.name + ' · ' + size(file.size);
    info.hidden = false;
    const refused = refusal(file);
    info.dataset.refused = refused ? 'true' : 'false';
    message.textContent = refused || '';
    return file;
  }

  input.addEventListener('change', chosen);
  ['dragenter', 'dragover'].forEach((type) => zone.addEventListener(type, (e) => { e.preventDefault(); zone.classList.add('over'); }));
  ['dragleave', 'drop'].forEach((type) => zone.addEventListener(type, () => zone.classList.remove('over')));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length > 0) { input.files = e.dataTransfer.files; chosen(); }
  });

  function showProgress(value) {
    progress.value = value;
    progressText.textContent = percent.format(value / 100);
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const file = chosen();
    if (!file) { message.textContent = words.chooseFirst; return; }
    const refused = refusal(file);
    if (refused) { message.textContent = refused; return; }
    const data = new FormData();
    data.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', form.action);
    xhr.setRequestHeader('Accept', 'application/json');
    bar.hidden = false;
    showProgress(0);
    button.disabled = true;
    message.textContent = say('uploadingFile', { name: file.name });
    xhr.upload.addEventListener('progress', (p) => { if (p.lengthComputable) showProgress(Math.round((p.loaded / p.total) * 100)); });
    xhr.addEventListener('load', () => {
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (err) { body = {}; }
      button.disabled = false;
      if (xhr.status === 200 || xhr.status === 201) {
        showProgress(100);
        const receipt = { id: body.submissionId, sha256: body.sha256, size: say('bytes', { count: body.size, size: number(body.size) }) };
        message.textContent = say(body.duplicate ? 'duplicate' : 'received', receipt);
        form.reset();
        info.hidden = true;
        refresh();
      } else {
        bar.hidden = true;
        message.textContent = body.error || words.failed;
      }
    });
    xhr.addEventListener('error', () => { button.disabled = false; bar.hidden = true; message.textContent = words.connectionLost; });
    xhr.send(data);
  });
})();
