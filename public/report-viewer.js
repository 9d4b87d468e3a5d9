// A report shown in place with pdf.js, from the tool's own origin: the library and its worker under
// /static/pdfjs/, the PDF from the signed address the page names. Each page is drawn on a canvas; without eval
// (the page's CSP forbids it). Its words come from the page (data-words on the container), in the page's language.
// The first scale fits the frame's width, but never below a readable one: on a phone a report page fitted to
// 350 px has 4 px text, so it is drawn larger and scrolls sideways inside its own box. Zoom in, zoom out and
// "Fit width" redraw the pages.
import { getDocument, GlobalWorkerOptions } from '/static/pdfjs/pdf.min.mjs';

GlobalWorkerOptions.workerSrc = '/static/pdfjs/pdf.worker.min.mjs';

/** The smallest scale the page opens at: 1 PDF point to 1 CSS pixel, where a report's body text is 10 to 12 px. */
const READABLE = 1;
const STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

const container = document.getElementById('report-pages');
const status = document.getElementById('report-status');
const toolbar = document.getElementById('report-toolbar');
const zoomShown = document.getElementById('report-zoom');
const words = JSON.parse(container.dataset.words || '{}');
const language = document.documentElement.lang || 'en';
const plurals = new Intl.PluralRules(language);
const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
const say = (key, params) => {
  const message = words[key];
  const text = typeof message === 'string' ? message : message[plurals.select(params.count)] || message.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
};

let pdf = null;
let naturalWidth = 0;
let drawing = 0;

const fitScale = () => Math.min(3, Math.max(0.3, (container.clientWidth || naturalWidth) / naturalWidth));

async function draw(scale) {
  const run = ++drawing;
  const ratio = window.devicePixelRatio || 1;
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    if (run !== drawing) return;
    const viewport = page.getViewport({ scale: scale * ratio });
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.style.width = Math.floor(viewport.width / ratio) + 'px';
    canvas.className = 'report-page';
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', say('pageOf', { page: number, pages: pdf.numPages }));
    canvas.dataset.page = String(number);
    await page.render({ canvas, canvasContext: canvas.getContext('2d'), viewport }).promise;
    if (run !== drawing) return;
    // The first page replaces the old drawing at once; the others follow as they are drawn.
    if (number === 1) container.replaceChildren(canvas);
    else container.appendChild(canvas);
  }
  container.dataset.scale = String(scale);
  zoomShown.textContent = percent.format(scale);
}

async function show() {
  pdf = await getDocument({
    url: container.dataset.pdfUrl,
    isEvalSupported: false,
    disableRange: true,
    standardFontDataUrl: '/static/pdfjs/standard_fonts/',
  }).promise;
  naturalWidth = (await pdf.getPage(1)).getViewport({ scale: 1 }).width;
  await draw(Math.max(READABLE, Math.min(2, fitScale())));
  status.textContent = say('shown', { count: pdf.numPages });
  container.dataset.rendered = String(pdf.numPages);
  toolbar.hidden = false;
}

toolbar.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-zoom]');
  if (!button || !pdf) return;
  const now = Number(container.dataset.scale) || 1;
  const action = button.dataset.zoom;
  const next =
    action === 'fit'
      ? fitScale()
      : action === 'in'
        ? (STEPS.find((step) => step > now + 0.01) ?? STEPS.at(-1))
        : ([...STEPS].reverse().find((step) => step < now - 0.01) ?? STEPS[0]);
  draw(next).catch(() => {
    status.textContent = words.failed;
  });
});

show().catch(() => {
  status.textContent = words.failed;
  container.dataset.rendered = 'failed';
});
