// LTI Dynamic Registration 1.0, section 3.6: tell the LMS window that opened the registration to close it.
(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
