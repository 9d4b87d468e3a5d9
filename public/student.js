// The student page: the chosen file's name and size, a wrong type or a too large file refused before sending,
// upload with a progress bar (XMLHttpRequest reports upload progress; fetch does not), drag and drop, the receipt
// on screen without reloading the page, and the status refreshed until every attempt is settled. Without scripts
// the form posts as a plain form and the server answers with the page.
(function () {
  const form = document.getElementById('submit-form');
  const list = document.getElementById('attempt-list');
  if (!list) return;

  function text(value) {
    return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  }

  function render(submissions, receiptBase, ltik) {
    if (submissions.length === 0) return;
    const rows = submissions.map((a) => `<tr data-state="${text(a.state)}"><td>${a.attempt}</td><td>${text(a.fileName)}</td>` +
      `<td><time datetime="${text(a.receivedAt)}">${text(a.receivedAt.replace('T', ' ').slice(0, 19))} UTC</time>${a.late ? ' (late)' : ''}</td>` +
      `<td><span class="badge">${text(a.stateText)}</span>${a.failureReason ? ': ' + text(a.failureReason) : ''}</td>` +
      `<td>${a.similarity === null ? '—' : text(a.similarity) + ' %'}${a.aiScore !== null ? ' · AI ' + text(a.aiScore) + ' %' : ''}</td>` +
      `<td>${a.reports.length === 0 ? '—' : '<ul class="links">' + a.reports.map((r) => `<li><a href="/reports/${text(a.submissionId)}/${text(r.kind)}/view?ltik=${encodeURIComponent(ltik)}">${text(r.label)}<span class="sr-only">, attempt ${a.attempt}</span></a></li>`).join('') + '</ul>'}</td>` +
      `<td><a href="${text(receiptBase)}/${text(a.submissionId)}/receipt?ltik=${encodeURIComponent(ltik)}">Download<span class="sr-only"> the receipt of attempt ${a.attempt}</span></a> <span class="hash" title="SHA-256">${text(a.sha256.slice(0, 12))}…</span></td></tr>`);
    list.innerHTML = '<table class="attempt-table"><thead><tr><th scope="col">Attempt</th><th scope="col">File</th><th scope="col">Received</th><th scope="col">Status</th><th scope="col">Similarity</th><th scope="col">Reports</th><th scope="col">Receipt</th></tr></thead><tbody>' + rows.join('') + '</tbody></table>';
  }

  const statusUrl = form ? form.dataset.statusUrl : list.dataset.statusUrl;
  const params = new URLSearchParams(statusUrl ? statusUrl.split('?')[1] : '');
  const ltik = params.get('ltik') || '';
  const receiptBase = statusUrl ? statusUrl.split('/my-submissions')[0] + '/submissions' : '';

  let timer = null;
  function refresh() {
    if (!statusUrl) return;
    fetch(statusUrl, { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        if (!body) return;
        render(body.submissions, receiptBase, ltik);
        const open = body.submissions.some((a) => !a.final);
        clearTimeout(timer);
        if (open) timer = setTimeout(refresh, 5000);
      })
      .catch(() => { timer = setTimeout(refresh, 15000); });
  }
  if (list.querySelector('tr[data-state="received"], tr[data-state="uploading"], tr[data-state="processing"]')) timer = setTimeout(refresh, 5000);

  if (!form) return;
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

  function size(bytes) {
    if (bytes >= 1024 * 1024) return (bytes / 1024 / 1024).toFixed(1) + ' MB';
    if (bytes >= 1024) return Math.round(bytes / 1024) + ' KB';
    return bytes + ' bytes';
  }

  // The same limits as the server's (the page carries them from the assignment's settings); null: it may go.
  function refusal(file) {
    const name = file.name.toLowerCase();
    if (extensions.length > 0 && !extensions.some((ext) => name.endsWith(ext))) {
      return 'This file is not a type this assignment takes (' + form.dataset.typeNames + '). Choose another file; nothing was sent.';
    }
    if (file.size > maxBytes) {
      return 'The file is larger than this assignment allows (' + form.dataset.maxMb + ' MB at most). Choose a smaller file; nothing was sent.';
    }
    if (file.size === 0) return 'The file is empty. Choose the file with your paper in it.';
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

  function showProgress(percent) {
    progress.value = percent;
    progressText.textContent = percent + ' %';
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const file = chosen();
    if (!file) { message.textContent = 'Choose a file first.'; return; }
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
    message.textContent = 'Uploading ' + file.name + '…';
    xhr.upload.addEventListener('progress', (p) => { if (p.lengthComputable) showProgress(Math.round((p.loaded / p.total) * 100)); });
    xhr.addEventListener('load', () => {
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (err) { body = {}; }
      button.disabled = false;
      if (xhr.status === 200 || xhr.status === 201) {
        showProgress(100);
        message.textContent = (body.duplicate ? 'This file was already submitted: receipt ' : 'Received: receipt ') +
          body.submissionId + ', SHA-256 ' + body.sha256 + ', ' + body.size + ' bytes.';
        form.reset();
        info.hidden = true;
        refresh();
      } else {
        bar.hidden = true;
        message.textContent = body.error || 'The upload did not go through. Please try again.';
      }
    });
    xhr.addEventListener('error', () => { button.disabled = false; bar.hidden = true; message.textContent = 'The connection was lost during the upload. Please try again.'; });
    xhr.send(data);
  });
})();
