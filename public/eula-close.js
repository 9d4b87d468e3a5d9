// The Asset Processor's EULA launch, once the terms are accepted: tell the LMS's window to close the tool's page
// (Canvas doc/api/document_processor.md: postMessage {subject: 'lti.close'}).
const eula = document.getElementById('eula');
if (eula && eula.dataset.closeAtOnce === 'true')
  (window.opener || window.parent).postMessage({ subject: 'lti.close' }, '*');
