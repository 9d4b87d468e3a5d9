// LTI platform storage (https://www.imsglobal.org/spec/lti-pm-s/v0p1) through the LTI client-side postMessages
// (https://www.imsglobal.org/spec/lti-cs-pm/v0p1). At login the tool keeps the OIDC state in the LMS's window
// (lti.put_data) and goes on to the LMS's authorization endpoint; at launch it asks for it back (lti.get_data) and
// only then sends the launch on. A launch forged in another browser finds no such state in that browser's LMS
// window, and messages are sent to, and taken from, the LMS's origin only.
(function () {
  var box = document.getElementById('lti-storage');
  var status = document.getElementById('lti-storage-status');
  if (!box || !status) return;
  var mode = box.dataset.mode;
  var origin = box.dataset.origin;
  var target = box.dataset.target;
  // The sentences come from the page (data-words), in its language.
  var words = JSON.parse(box.dataset.words || '{}');
  function fail(sentence) {
    status.textContent = sentence;
    status.className = 'notice';
  }
  var parentWindow = window.parent !== window ? window.parent : null;
  var frame;
  try {
    // lti_storage_target is `_parent` or the name of a frame in the LMS's window (Canvas: post_message_forwarding).
    frame = parentWindow && (target === '_parent' ? parentWindow : parentWindow.frames[target]);
  } catch (error) {
    frame = null;
  }
  if (!frame) {
    fail(words.notFramed);
    return;
  }
  var id = window.crypto && window.crypto.randomUUID ? window.crypto.randomUUID() : String(Math.random()).slice(2);
  var timer = setTimeout(function () {
    fail(words.noAnswer);
  }, 5000);
  window.addEventListener('message', function (event) {
    var data = event.data || {};
    if (event.origin !== origin || data.message_id !== id) return;
    clearTimeout(timer);
    if (data.error) {
      fail(words.notKept);
    } else if (mode === 'put' && data.subject === 'lti.put_data.response') {
      window.location.replace(box.dataset.next);
    } else if (mode === 'get' && data.subject === 'lti.get_data.response') {
      if (data.value === box.dataset.value) document.getElementById('lti-launch').submit();
      else fail(words.otherBrowser);
    }
  });
  var message =
    mode === 'put'
      ? { subject: 'lti.put_data', message_id: id, key: box.dataset.key, value: box.dataset.value }
      : { subject: 'lti.get_data', message_id: id, key: box.dataset.key };
  frame.postMessage(message, origin);
})();
