// A report shown in place with pdf.js, from the tool's own origin: the library and its worker under
// /static/pdfjs/, the PDF from the signed address the page names. Each page is drawn on a canvas as wide as the
// frame allows; without eval (the page's CSP forbids it). Its words come from the page (data-words on the
// container), in the page's language.
import { getDocument, GlobalWorkerOptions } from '/static/pdfjs/pdf.min.mjs';

GlobalWorkerOptions.workerSrc = '/static/pdfjs/pdf.worker.min.mjs';

const container = document.getElementById('report-pages');
const status = document.getElementById('report-status');
const words = JSON.parse(container.dataset.words || '{}');
const plurals = new Intl.PluralRules(document.documentElement.lang || 'en');
const say = (key, params) => {
  const message = words[key];
  const text = typeof message === 'string' ? message : message[plurals.select(params.count)] || message.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
};

async function show() {
  const pdf = await getDocument({
    url: container.dataset.pdfUrl,
    isEvalSupported: false,
    disableRange: true,
    standardFontDataUrl: '/static/pdfjs/standard_fonts/',
  }).promise;
  const ratio = window.devicePixelRatio || 1;
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(2, Math.max(0.3, (container.clientWidth || natural.width) / natural.width));
    const viewport = page.getViewport({ scale: scale * ratio });
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.style.width = Math.floor(viewport.width / ratio) + 'px';
    canvas.className = 'report-page';
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', say('pageOf', { page: number, pages: pdf.numPages }));
    canvas.dataset.page = String(number);
    container.appendChild(canvas);
    await page.render({ canvas, canvasContext: canvas.getContext('2d'), viewport }).promise;
  }
  status.textContent = say('shown', { count: pdf.numPages });
  container.dataset.rendered = String(pdf.numPages);
}

show().catch(() => {
  status.textContent = words.failed;
  container.dataset.rendered = 'failed';
});
