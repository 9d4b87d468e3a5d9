// The four reports (spec 4.4) as real PDFs made with pdfkit: similarity (the score and each matched passage with
// the earlier paper it matches), AI content and grammar quality (both SIMULATED, and saying so), and a
// one-page summary.
import PDFDocument from 'pdfkit';
import type { Findings, Paper } from './records.js';
import type { Clock } from './time.js';
import type { ReportKind } from '../checker/types.js';

export type { ReportKind };

const TITLES: Record<ReportKind, string> = {
  similarity: 'Similarity report',
  ai: 'AI content report',
  summary: 'Summary report',
  grammar: 'Grammar quality report',
};

// The built-in PDF fonts know Latin-1 only; anything else would print as garbage.
const printable = (text: string) => text.replace(/…/g, '...').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

function header(doc: PDFKit.PDFDocument, kind: ReportKind, paper: Paper, clock: Clock): void {
  doc.fontSize(18).text(TITLES[kind]);
  doc
    .moveDown(0.3)
    .fontSize(9)
    .fillColor('#555')
    .text(
      "Checking-service sandbox: similarity is computed against the account's earlier papers; AI and grammar scores are simulated.",
    );
  doc.fillColor('black').moveDown(0.5).fontSize(10);
  // The paper by the title its sender gave it (the student's own file name), never by the name it was stored under,
  // which is the sender's bookkeeping; its time on UTC's clock, named, since a report is read in any zone.
  doc.text(printable(`Paper ${paper.id}: ${paper.title}`));
  doc.text(printable(`Author: ${paper.authorName}. Uploaded ${clock.forReader(paper.uploadedAt)}.`));
  doc.moveDown();
}

function similarityBody(doc: PDFKit.PDFDocument, findings: Findings, passages: boolean): void {
  doc.fontSize(14).text(`Similarity: ${findings.percent}%`);
  doc
    .fontSize(10)
    .text(`Before exclusions: ${findings.ogPercent}%. Words: ${findings.words}. Pages: ${findings.pages}.`);
  doc.moveDown();
  if (findings.matches.length === 0) doc.text('No matching sources among the earlier papers of this account.');
  for (const match of findings.matches.slice(0, passages ? 20 : 3)) {
    doc
      .fontSize(11)
      .text(printable(`${match.percent}% (${match.words} words) matches paper ${match.paperId}, "${match.title}"`));
    if (passages)
      for (const passage of match.passages)
        doc
          .fontSize(9)
          .fillColor('#444')
          .text(printable(`"${passage}"`), { indent: 12 })
          .fillColor('black');
    doc.moveDown(0.5);
  }
}

/** The report as a PDF stream; the caller has checked that the paper has findings. */
export function reportPdf(kind: ReportKind, paper: Paper, findings: Findings, clock: Clock): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: printable(`${TITLES[kind]}: ${paper.title}`), Producer: 'originality-lti sandbox' },
  });
  header(doc, kind, paper, clock);
  switch (kind) {
    case 'similarity':
      similarityBody(doc, findings, true);
      break;
    case 'summary':
      similarityBody(doc, findings, false);
      doc.fontSize(10).moveDown().text(`AI-generated content (simulated): ${findings.ai}%.`);
      if (findings.grammar !== null) doc.text(`Grammar quality (simulated): ${findings.grammar}/100.`);
      break;
    case 'ai':
      doc.fontSize(14).text(`AI-generated content: ${findings.ai}% (simulated)`);
      doc
        .fontSize(10)
        .text("This number is derived from the text's own statistics and a hash of it; it is not a real AI detector.");
      break;
    case 'grammar':
      doc.fontSize(14).text(`Grammar quality: ${findings.grammar ?? 0}/100 (simulated)`);
      doc
        .fontSize(10)
        .text(
          `Sentences: ${findings.sentences}. This number is derived from sentence statistics; it is not a real grammar check.`,
        );
      break;
  }
  doc.end();
  return doc;
}
