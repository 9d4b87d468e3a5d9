// Every page, when it is shown in an LMS's frame: tells the LMS the page's height, on load and whenever it changes,
// with lti.frameResize (Canvas grows or shrinks its frame to fit, so the page never scrolls inside it), and, when
// the LMS says it supports it, asks it with lti.scrollToTop to bring the frame's top into sight after each
// navigation (https://www.imsglobal.org/spec/lti-cs-pm/v0p1). An LMS that knows neither message (Moodle) ignores
// them: there the page scrolls as one document inside the frame's own height.
(function () {
  if (window.parent === window) return;
  var parentWindow = window.parent;
  var sent = -1;

  function height() {
    return Math.ceil(document.documentElement.getBoundingClientRect().height);
  }

  function resize() {
    var now = height();
    if (now === sent) return;
    sent = now;
    parentWindow.postMessage({ subject: 'lti.frameResize', height: now }, '*');
  }

  resize();
  if (typeof ResizeObserver === 'function') new ResizeObserver(resize).observe(document.documentElement);
  else window.addEventListener('resize', resize);
  window.addEventListener('load', resize);

  // lti.capabilities (same specification): scroll to the top only where the LMS lists lti.scrollToTop.
  var id = 'capabilities-' + String(Math.random()).slice(2);
  function answer(event) {
    var data = event.data || {};
    if (event.source !== parentWindow || data.subject !== 'lti.capabilities.response' || data.message_id !== id) return;
    window.removeEventListener('message', answer);
    var supported = Array.isArray(data.supported_messages) ? data.supported_messages : [];
    if (
      supported.some(function (m) {
        return m && m.subject === 'lti.scrollToTop';
      })
    ) {
      parentWindow.postMessage({ subject: 'lti.scrollToTop' }, event.origin);
    }
  }
  window.addEventListener('message', answer);
  parentWindow.postMessage({ subject: 'lti.capabilities', message_id: id }, '*');
})();
