// The settings page: after a save, ask until the checking service has the settings (or refused them), and say so.
(function () {
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
