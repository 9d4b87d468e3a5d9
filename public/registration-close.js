// LTI Dynamic Registration 1.0, step 4: tell the window that opened the registration (the LMS's panel, an iframe
// or a window) that the tool is done, so that the LMS closes it and shows the new tool.
// https://www.imsglobal.org/spec/lti-dr/v1p0#step-4-registration-completed-and-activation
function closeRegistration() {
  (window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
}
const button = document.getElementById('close-registration');
if (button) button.addEventListener('click', closeRegistration);
const page = document.getElementById('registration');
if (page && page.dataset.closeAtOnce === 'true') closeRegistration();
