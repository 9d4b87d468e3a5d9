// Submits the form marked data-auto-submit as soon as the page loads (the deep-linking return to the LMS).
document.querySelectorAll('form[data-auto-submit]').forEach((form) => form.submit());
