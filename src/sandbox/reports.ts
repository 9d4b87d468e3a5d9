// Real PDF reports, made with pdfkit: similarity (with the matched passages), AI content and grammar (both marked
// simulated), and a one-page summary.
import PDFDocument from 'pdfkit';
import type { Paper } from './store.js';

export type ReportKind = 'similarity' | 'ai' | 'summary' | 'grammar';

export function reportPdf(kind: ReportKind, paper: Paper): PDFKit.PDFDocument {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${kind} report: ${paper.title}` } });
  doc.fontSize(18).text(`${kind === 'ai' ? 'AI content' : kind[0]!.toUpperCase() + kind.slice(1)} report`);
  doc.moveDown(0.5).fontSize(10).text(`Sandbox of the checking service. Paper ${paper.id}: ${paper.title}`);
  doc.text(`Author: ${paper.authorName}. Uploaded ${paper.uploadedAt.toISOString()}.`);
  doc.moveDown();
  if (kind === 'similarity' || kind === 'summary') {
    doc.fontSize(14).text(`Similarity: ${paper.percent ?? 0}%`);
    doc.fontSize(10).text(`Words: ${paper.wordCount}. Pages: ${paper.pageCount}.`);
    if (kind === 'summary') {
      doc.text(`AI content (simulated): ${paper.ai ?? 0}%.`);
      if (paper.grammar !== null) doc.text(`Grammar (simulated): ${paper.grammar}/100.`);
    }
    doc.moveDown();
    for (const match of paper.matches.slice(0, kind === 'summary' ? 3 : 20)) {
      doc.fontSize(11).text(`${match.percent}% matches paper ${match.paperId} ("${match.title}")`);
      if (kind === 'similarity') for (const passage of match.passages) doc.fontSize(9).fillColor('#444').text(`"… ${passage} …"`).fillColor('black');
      doc.moveDown(0.5);
    }
    if (paper.matches.length === 0) doc.text('No matching sources among earlier papers.');
  } else if (kind === 'ai') {
    doc.fontSize(14).text(`AI-generated content: ${paper.ai ?? 0}% (simulated)`);
    doc.fontSize(10).text('The sandbox derives this number from the text itself; it is not a real AI detector.');
  } else {
    doc.fontSize(14).text(`Grammar quality: ${paper.grammar ?? 0}/100 (simulated)`);
    doc.fontSize(10).text('The sandbox derives this number from sentence statistics; it is not a real grammar check.');
  }
  doc.end();
  return doc;
}
