// English: every word of the tool's pages, the reference the other languages translate (index.ts).
// Parameters in braces; a message with plural forms counts `{count}` (Intl.PluralRules categories).
import type { Message } from './message.js';

export const en = {
  // Sizes, for the upload page and the receipt.
  'size.bytes': { one: '{size} byte', other: '{size} bytes' },
  'size.kilobytes': '{size} KB',
  'size.megabytes': '{size} MB',

  // File types, as the upload page names them.
  'fileType.pdf': 'PDF',
  'fileType.docx': 'Word (DOCX)',
  'fileType.doc': 'Word 97-2003 (DOC)',
  'fileType.odt': 'OpenDocument text (ODT)',
  'fileType.rtf': 'Rich Text (RTF)',
  'fileType.txt': 'plain text (TXT)',
  'fileType.html': 'web page (HTML)',

  // The student's page.
  'student.signedInAs': 'Signed in as',
  'student.you': 'you',
  'student.instructions': 'Instructions',
  'student.whatToSubmit': 'What to submit',
  'student.fileTypes': 'File types: {types}',
  'student.largestFile': 'Largest file: {size} MB',
  'student.attempts': 'Attempts: {count}',
  'student.attemptsUntilDue': 'Attempts: {count} (until the due date)',
  'student.due': 'Due:',
  'student.submitYourPaper': 'Submit your paper',
  'student.chooseFile': 'Choose a file, or drop it here',
  'student.fileHelp': '{types}; up to {size} MB.',
  'student.lateWarning': 'The due date has passed: this submission will be marked late.',
  'student.submit': 'Submit',
  'student.uploading': 'Uploading',
  'student.yourSubmissions': 'Your submissions',
  'student.card.heading': 'Your result',
  'student.card.attemptOf': 'Attempt {attempt} of {limit}',
  'student.card.file': '{file}, received {time}',
  'student.card.similarity': 'similarity',
  'student.card.viewReport': 'View report',
  'student.card.waiting': 'Results usually arrive within 10–15 minutes; this page updates by itself.',
  'student.card.resultArrived': 'Result arrived {time}',
  'student.replaced': 'Replaced by attempt {attempt}: its report was removed from the checking service.',
  'student.newAttempt': 'Submit a new attempt',
  'student.receipt': 'Receipt',
  'student.resultsForInstructors':
    'Your instructor sees the similarity results of this assignment; they are not shown to students.',
  'student.resultsAfterDue': 'Similarity results are shown here after the due date.',
  'student.nothingYet': 'Nothing submitted yet.',
  'student.nothingYetCanSubmit':
    'Choose your file above and submit it; its receipt and, later, its result appear here.',
  'student.nothingYetCannotSubmit': 'Your submissions appear here once you can submit.',
  'student.col.attempt': 'Attempt',
  'student.col.file': 'File',
  'student.col.received': 'Received',
  'student.col.status': 'Status',
  'student.col.similarity': 'Similarity',
  'student.col.reports': 'Reports',
  'student.col.receipt': 'Receipt',
  'student.late': '(late)',
  'student.aiScore': 'AI {score}',
  'student.reportOfAttempt': ', attempt {attempt}',
  'student.download': 'Download',
  'student.receiptOfAttempt': ' the receipt of attempt {attempt}',
  'student.refused.oneSubmission': 'This assignment takes one submission, and yours is in.',
  'student.refused.attemptsUsed': {
    one: 'You have used the one attempt of this assignment.',
    other: 'You have used all {count} attempts of this assignment.',
  },
  'student.refused.closed': 'The due date has passed: resubmissions are closed.',
  'student.refused.submitInLms':
    'Papers for this assignment are handed in in the LMS, in the assignment itself, and the tool receives them from there. Submit your paper in the LMS.',

  // Why an upload was refused (the upload's answer, on the page or to its script).
  'upload.empty': 'The file is empty. Choose the file with your paper in it.',
  'upload.wrongType': 'This file is a {type} file. This assignment takes: {allowed}.',
  'upload.unknownType': 'This file is not a document type the tool recognises. This assignment takes: {allowed}.',
  'upload.tooLarge': 'The file is larger than this assignment allows ({size} MB at most).',
  'upload.notMultipart': 'Send the file as a form upload (multipart/form-data) in a field named "file".',
  'upload.unreadable': 'The upload could not be read.',
  'upload.stalled':
    'The upload stopped: nothing arrived for {seconds} seconds, so it was cut off and nothing was kept. Please send the file again.',
  'upload.tooSlow':
    'The upload was too slow: less than {kb} KB a second arrived over {seconds} seconds, so it was cut off and nothing was kept. Please send the file again from a better connection.',
  'upload.wrongField': 'The file must come in the form field named "file".',
  'upload.interrupted': 'The upload was interrupted. Please try again.',
  'upload.oneFile': 'Send one file per submission.',
  'upload.tooManyParts': 'The upload has more parts than a submission needs.',
  'upload.tooManyFields': 'The upload has more fields than a submission needs.',
  'upload.malformed': 'The upload could not be read: the form data is malformed.',
  'upload.noFile': 'No file was attached: choose a file to submit.',
  // What the upload page's script says (it reads these from the page).
  'student.script.wrongType':
    'This file is not a type this assignment takes ({types}). Choose another file; nothing was sent.',
  'student.script.tooLarge':
    'The file is larger than this assignment allows ({size} MB at most). Choose a smaller file; nothing was sent.',
  'student.script.empty': 'The file is empty. Choose the file with your paper in it.',
  'student.script.chooseFirst': 'Choose a file first.',
  'student.script.uploadingFile': 'Uploading {name}…',
  'student.script.arrived': '✓ {name} arrived on {time}.',
  'student.script.soon': 'Results usually within 10–15 minutes.',
  'student.script.duplicate': '✓ {name} was already submitted as attempt {attempt}; nothing new was sent.',
  'student.script.receipt': 'Receipt {id} · SHA-256 {sha256} · {size}',
  'student.script.chooseAnother': 'Choose another file and submit again.',
  'student.script.failed': 'The upload did not go through. Please try again.',
  'student.script.connectionLost': 'The connection was lost during the upload. Please try again.',

  // A submission's state, as its student reads it.
  'state.received': 'Received',
  'state.uploading': 'Sent for checking',
  'state.processing': 'Being checked',
  'state.checked': 'Checked',
  'state.rejected': 'Not accepted',
  'state.failed': 'Could not be checked',
  'state.not-submitted': 'Not submitted',

  // Reports, as their readers' links name them.
  'report.student.similarity': 'Similarity report',
  'report.student.ai': 'AI report',
  'report.student.summary': 'Summary',
  'report.student.grammar': 'Grammar report',
  'report.instructor.similarity': 'Similarity',
  'report.instructor.ai': 'AI',
  'report.instructor.summary': 'Summary',
  'report.instructor.grammar': 'Grammar',

  // The receipt a student downloads.
  'receipt.title': 'Submission receipt',
  'receipt.assignment': 'Assignment',
  'receipt.submissionId': 'Submission id',
  'receipt.attempt': 'Attempt',
  'receipt.receivedAt': 'Received at',
  'receipt.file': 'File',
  'receipt.size': 'Size',
  'receipt.late': 'Submitted after the due date.',

  // Sessions and refusals, on the message page.
  'session.openFromCourse': 'Please open the assignment from your course',
  'session.ended': 'Your session with the tool has ended. Open the assignment again from your course.',
  'session.notOnItsOwn': 'Open this page from the assignment in your course: it cannot be opened on its own.',
  'refused.notFound': 'Not found',
  'refused.notAvailable': 'Not available',
  'refused.notForYourRole': 'Not available for your role',
  'refused.noSuchAssignment': 'There is no such assignment. Open it again from your course.',
  'refused.otherCourseAssignment': 'This assignment belongs to another course. Open it from its own course.',
  'refused.roleNoAccess':
    'Your role in this course does not give access to this assignment. If it should, ask your instructor to check your role in the course.',
  'refused.instructorsOnly':
    'Only instructors of the course can do this. Open the assignment from your course to see your own side of it.',
  'refused.notInYourCourse': 'This assignment is not part of the course you opened. Open it from its own course.',
  'refused.noSuchSubmission':
    'There is no such submission in this assignment; it may have been deleted. Go back to the list of submissions.',
  'refused.noPage': 'There is no page at this address.',
  'refused.otherSite':
    'This form was sent from another site, so the tool did not act on it. Open the page from your course and try again.',
  'refused.notAccepted': 'Not accepted',
  'refused.notSubmitted': 'Not submitted',
  'error.title': 'Error',
  'error.unstorable':
    'The form holds a character that cannot be stored (a NUL character). Remove it and send the form again.',
  'error.unreadable': 'The request could not be read.',
  'error.tooLarge': 'The request is too large.',
  'error.bodyEncoding':
    'The body is sent with a Content-Encoding the tool does not read ({encoding}): send it uncompressed, or as gzip, deflate or br.',
  'error.bodyCharset': 'The body is written in a character set the tool does not read ({charset}): send it as UTF-8.',
  'error.bodyUndecodable':
    'The body could not be decompressed: it is not what its Content-Encoding says. Send it again, or uncompressed.',
  'error.bodyNotJson': 'The body is not valid JSON.',
  'error.bodyTooLarge': 'The body is larger than this address takes ({size} at most): send less in one request.',
  'error.ours': 'Something went wrong on our side. Please try again in a moment.',
  'busy.title': 'Busy',
  'busy.launch': 'The tool is busy opening other assignments right now. Please open this one again in a few seconds.',
  'busy.upload':
    'The tool is busy receiving other papers right now, so this one was not received. Please send it again in a few seconds.',
  'busy.pages': 'The tool is busy right now. Please try again in a few seconds.',

  // Launches.
  'launch.couldNotOpen': 'Could not open the assignment',
  'launch.roleNoAccess':
    'This tool is for the instructors and students of the course. Your role in this course does not give access to it; if it should, ask your instructor to check your role in the course.',
  'launch.instructorsAdd': 'Only instructors can add the tool to a course. Ask an instructor of the course to add it.',
  'launch.fromAssignmentTitle': 'Open the tool from an assignment',
  'launch.fromAssignment': 'The tool works inside a course assignment. Open it from the assignment in your course.',
  'launch.incomplete': 'Your LMS sent a launch without information the tool needs. Tell your LMS administrator.',
  'launch.unregistered':
    "This LMS is not registered with the tool, or its registration is switched off. Your LMS administrator must register the tool in this LMS, or set this activity to use the tool's existing registration.",
  'launch.notOffered':
    'Your LMS opened the tool for something it does not offer. Open the assignment from your course; if this link keeps leading here, tell your LMS administrator.',
  'launch.notVerified':
    'The launch from your LMS could not be verified. Open the assignment again from your course; if this keeps happening, tell your LMS administrator.',

  // The settings form's refusals.
  'settings.error.unreadable': 'The form could not be read: check the field "{field}".',
  'settings.error.dueAt':
    'Enter the due date as a date and a time (for example 2026-12-01 17:00), or leave it empty for no due date.',
  'settings.error.excludedPhrases': 'Up to {count} excluded phrases, one per line, 500 characters each at most.',
  'settings.error.allowedFileTypes': 'Allow at least one file type.',
  'settings.error.maxFileMb': 'The largest file must be between 1 and {max} MB (the service takes no more).',
  'settings.error.maxAttempts': 'Attempts must be between 1 and 50.',
  'settings.error.excludeThresholdWords': 'The word threshold must be a whole number from 0 to 1000.',
  'settings.error.instructions': 'Instructions can be {max} characters at most.',
  'settings.error.similarityBands':
    'Each colour band starts between 1 and 100 %, above the band before it (yellow, then orange, then red).',
  'settings.error.language': 'Name the language of the papers (60 characters at most).',
  'settings.error.documentType': 'Choose a document type: {types}.',
  'settings.error.gradeColumn':
    'Choose what the gradebook gets: a comment beside the submission, the similarity as the grade, or a column of its own.',
  'settings.error.field': 'Check the field "{field}": {problem}',

  // Deep linking and the Asset Processor's attach page (the messages around them).
  'deepLink.defaultTitle': 'Similarity check',
  'deepLink.instructorsOnly': 'Only an instructor adding the tool from the LMS can do this.',
  'deepLink.titleMissing': 'Give the assignment a title.',
  'deepLink.titleTooLong': 'The title is too long (200 characters at most).',
  'deepLink.notHereTitle': 'Cannot be added here',
  'deepLink.notHere':
    'This place in your LMS does not accept an assignment link. Add the tool as an assignment (an external tool activity) instead.',
  'deepLink.added': 'Added "{title}".',
  'attach.titleMissing': 'Give the check a title.',
  'attach.notHereTitle': 'Cannot be attached here',
  'attach.notHere':
    "This place in your LMS does not take a document processor. Attach the tool from the assignment's document processor settings instead.",
  'attach.cannotTitle': 'Cannot be attached',
  'attach.noNoticeService':
    'Your LMS did not say where its notification service is, so the tool cannot hear of submissions. Tell your LMS administrator.',
  'attach.attached': 'Attached "{title}".',

  // Reports.
  'report.notAvailable': 'Report not available',
  'report.otherCourse': 'This report belongs to another course. Open it from its own course.',
  'report.linkExpired': 'This report link has expired. Open the report again from the assignment.',
  'report.noSuch': 'There is no such report. Go back to the assignment and open the report from its list.',
  'report.othersPaper': "This report is of another student's paper. Open your own reports from the assignment.",
  'report.notShown':
    'Your instructor has not made this report available to you. Your results stay on the assignment page, where they appear once your instructor shows them.',
  'report.notReady':
    'The report is not ready: the paper is still being checked. The assignment page shows when it is done; open the report from there.',
  'report.replaced':
    'This attempt was replaced by a later one: its paper and its report were removed from the checking service, so that the later attempt is not compared with it. Its similarity stays in the history.',
  'report.noGrammar': 'There is no grammar report for this paper (grammar checking was off, or it is not ready).',
  'report.serviceFailed': 'The checking service did not send the report: {reason}',
  'report.roleNoAccess':
    'Reports are for the instructors of the course and the student who submitted the file. Your role in this course does not give access to them.',
  'report.noCourse':
    'The LMS did not say which course this report belongs to, so the tool cannot open it. Open it from the assignment in your course.',
  'report.unknownFile':
    'The tool has no record of this file for this assignment (it may have been submitted before the tool was attached). Ask your instructor to have it checked again.',
  'report.othersFile': "This report is of another student's file. You can open the reports of your own files only.",
  'report.paperRemoved':
    'The checked paper for this file was removed from the tool. Ask your instructor to have it checked again.',

  // The instructor's dashboard: notices after an action.
  'dashboard.notice.noScoreToSend':
    'Nothing was sent for {name}: only a checked paper has a score to send, and this one is {state}.',
  'dashboard.notice.notOnItsWay':
    'Nothing was sent for {name}: only a paper still on its way to a result can be sent again, and this one is {state}.',
  'dashboard.notice.sendingNow':
    "{name}'s paper is being sent to the checking service right now; nothing more was queued.",
  'dashboard.notice.alreadyQueued': "{name}'s paper is already queued; it goes in a moment.",
  'dashboard.notice.queued.upload': 'The paper is queued to be sent to the checking service again ({name}).',
  'dashboard.notice.queued.result': 'The checking service is asked for the result again ({name}).',
  'dashboard.notice.queued.grade': 'The score is queued for the gradebook again ({name}).',
  'dashboard.notice.queued.reports': 'The reports are queued for the LMS again ({name}).',
  'dashboard.notice.noGradebook':
    'Nothing was sent: the LMS gave this assignment no gradebook column and no way to create one, so the tool posts no scores.',
  'dashboard.notice.reportsNotGrades':
    'Nothing was sent to the gradebook: in this assignment the tool reports beside each file in the LMS and posts no grade.',
  'dashboard.notice.scoresQueued': {
    one: '{count} score queued for the gradebook.',
    other: '{count} scores queued for the gradebook.',
  },
  'dashboard.notice.notDeleted': "{name}'s paper was not deleted. {reason}",
  'dashboard.notice.deleted':
    "{name}'s attempt {attempt} is deleted, here and at the checking service; the student may submit again.",
  'dashboard.histogram.barTitle': '{from}-{to} %: {count}',
  'dashboard.histogram.none': 'No scored submissions yet.',
  'dashboard.histogram.bar': '{count} between {from} and {to} %',
  'dashboard.histogram.label': 'Similarity of the class, {count} scored',
  'dashboard.folderFailed': "The checking service has not accepted this assignment's settings yet: {reason}",
  'dashboard.similarityInClass': 'Similarity in the class',
  'dashboard.students': 'Students ({shown} of {total})',
  'dashboard.filter.status': 'Status',
  'dashboard.filter.band': 'Band',
  'dashboard.filter.all': 'all',
  'dashboard.filter.apply': 'Filter',
  'dashboard.exportCsv': 'Export CSV',
  'dashboard.empty.noStudents': 'No students yet.',
  'dashboard.empty.noMatch': 'No student matches this filter.',
  'dashboard.empty.noStudentsHelp':
    'The course roster lists the students once the LMS shares it; students submit from this assignment in the course.',
  'dashboard.empty.noMatchHelp': 'Choose "all" in the filters to see every student.',
  'dashboard.col.student': 'Student',
  'dashboard.col.status': 'Status',
  'dashboard.col.similarity': 'Similarity',
  'dashboard.col.ai': 'AI',
  'dashboard.col.submitted': 'Submitted',
  'dashboard.col.actions': 'Actions',
  'dashboard.summary.submitted': '{submitted} of {total} submitted',
  'dashboard.summary.missing': '{count} missing',
  'dashboard.summary.inRed': '{count} at {percent} or above',
  'dashboard.summary.sinceVisit': {
    one: '{count} result arrived since your last visit ({time})',
    other: '{count} results arrived since your last visit ({time})',
  },
  'dashboard.summary.nothingNew': 'No new results since your last visit ({time})',
  'dashboard.new': 'new',
  'dashboard.downloadReports': 'Download all reports (ZIP)',
  'dashboard.gradebookProblem': 'Gradebook: {reason}',
  'dashboard.gradebook.posted': 'Sent to the gradebook',
  // The comment beside a result in the LMS's gradebook (grades/score-body.ts), which the student reads too.
  'gradebook.comment.similarity': 'Similarity {similarity}%. The full report is in the assignment.',
  'gradebook.comment.checked': 'Checked for similarity. The report is in the assignment.',
  'gradebook.comment.deleted': 'The submission was deleted by an instructor.',
  // What the LMS shows beside a file the tool checks as its Asset Processor (assetprocessor/asset-report.ts).
  'assetReport.title.originality': 'Originality',
  'assetReport.title.ai': 'AI content',
  'assetReport.similarity': 'Similarity {percent}',
  'assetReport.ai': 'AI-written content estimated at {percent}',
  'assetReport.band.green': 'low',
  'assetReport.band.yellow': 'moderate',
  'assetReport.band.orange': 'high',
  'assetReport.band.red': 'very high',
  'assetReport.fetching': 'the tool is fetching the file from the LMS to check it.',
  'assetReport.waiting': 'results usually come within 15 minutes.',
  'assetReport.refused': 'The checking service refused the file.',
  'assetReport.checkFailed': 'The check of this file failed at the checking service.',
  'assetReport.notChecked': 'The file could not be checked.',
  'dashboard.attempts': { one: '{count} attempt', other: '{count} attempts' },
  'dashboard.aiCaveat': 'AI scores are estimates, not proof: read the AI report before acting on one.',
  'dashboard.reportOf': ' report of {name}',
  'dashboard.action.resend': 'Send again',
  'dashboard.action.resyncGrade': 'Resend grade',
  'dashboard.action.resyncComment': 'Send the result to the gradebook again',
  'dashboard.action.resendReports': 'Send the reports again',
  'dashboard.action.delete': 'Delete',
  'dashboard.confirmDelete':
    "Delete {name}'s latest attempt, here and at the checking service? The student may then submit again.",
  'dashboard.actionFor': ' for {name}',
  'dashboard.resyncAll': 'Send all scores to the gradebook again',
  'dashboard.gradebookUse.reports':
    "The tool checks the files students submit in the LMS's own assignment and shows each report beside the file there; it posts no grade to the gradebook.",
  'dashboard.gradebookUse.none':
    'The LMS gave this assignment no gradebook column and no way to create one: the tool posts no scores; the results are here.',
  'dashboard.gradebookUse.comment':
    "The LMS gradebook gets each student's similarity as a comment beside their submission in this assignment's column; the tool posts no grade, and a grade you give stays yours.",
  'dashboard.gradebookUse.assignment':
    "The LMS gradebook gets each student's similarity as their grade in this assignment's column (0 to 100), which students see and which counts in the course total; a grade you gave in the LMS is not overwritten. Change it under Settings.",
  'dashboard.gradebookUse.similarity':
    'The LMS gradebook gets each student\'s similarity in a column of its own ("Similarity: {title}"), which counts in the course total unless you take it out there. Change it under Settings.',
  'band.green': 'low',
  'band.yellow': 'moderate',
  'band.orange': 'high',
  'band.red': 'very high',
  'nav.label': 'Assignment',
  'nav.submissions': 'Submissions',
  'nav.settings': 'Check settings',
  'nav.admin': 'Administration',

  // The report viewer.
  'viewer.student': 'Student',
  'viewer.file': 'File',
  'viewer.checked': 'Checked',
  'viewer.similarity': 'Similarity',
  'viewer.ai': 'AI-written text',
  'viewer.aiCaveat': '(an estimate, not proof)',
  'viewer.zoom': 'Zoom',
  'viewer.zoomOut': 'Zoom out',
  'viewer.zoomIn': 'Zoom in',
  'viewer.fitWidth': 'Fit width',
  'viewer.download': 'Download the PDF',
  'viewer.back': 'Back to the assignment',
  'viewer.loading': 'Loading the report…',
  'viewer.noScript':
    'This page shows the report with a script, and scripts are off in your browser: download the PDF to read it.',
  'viewer.script.pageOf': 'Page {page} of {pages}',
  'viewer.script.shown': {
    one: '{count} page. Use the download link to keep a copy.',
    other: '{count} pages. Use the download link to keep a copy.',
  },
  'viewer.script.failed': 'The report could not be shown here. Use the download link to open it.',

  // The instructor's settings and the check's settings (also on the Asset Processor's attach page).
  'check.leftOut': 'What the check leaves out',
  'check.references': 'References and bibliography',
  'check.quotes': 'Quoted text',
  'check.smallSources': 'Small sources',
  'check.threshold': 'Small means fewer words than',
  'check.thresholdHelp': 'A source matching fewer words than this does not count, when small sources are left out.',
  'check.phrases': 'Phrases to ignore',
  'check.phrasesHelp': 'One per line, up to 15: a template or a question that every paper repeats.',
  'check.compareWith': 'Compare with',
  'check.studentPapers': 'Student papers',
  'check.publications': 'Publications',
  'check.internet': 'The internet',
  'check.repository': "The institution's repository",
  'check.grammar': 'Also check grammar',
  'check.papers': 'Papers',
  'check.language': 'Language of the papers',
  'check.documentType': 'Document type',
  'documentType.Assignment': 'Assignment',
  'documentType.Article': 'Article',
  'documentType.Thesis': 'Thesis',
  'settings.saved': 'Saved.',
  'settings.submissions': 'Files and instructions',
  'settings.deadline': 'Due date and attempts',
  'settings.dueAtZone': 'Time zone: {zone}',
  'settings.advanced': 'Advanced: what the checking service compares',
  'settings.advancedHelp':
    'Most assignments keep the usual choices. Change them when the check should leave out more, or compare papers with fewer sources.',
  'settings.fileTypes': 'File types students may send',
  'settings.maxFileMb': 'Largest file (MB)',
  'settings.maxFileMbHelp': '100 MB at most: the checking service takes no more.',
  'settings.resubmission': 'Resubmissions',
  'settings.resubmission.none': 'none: one submission',
  'settings.resubmission.untilDue': 'until the due date',
  'settings.resubmission.anyTime': 'any time',
  'settings.resubmissionHelp': "Each new attempt is checked again; the gradebook gets the latest attempt's score.",
  'settings.earlierAttempts': 'Earlier attempts at the checking service',
  'settings.earlierAttempts.replace': 'replaced by the next attempt',
  'settings.earlierAttempts.replaceHelp':
    "When a student submits again, the paper of their earlier attempt is deleted at the checking service before the new one is checked, so that a revision is not matched against the student's own draft. The earlier attempt's similarity stays in its history, marked as replaced; its report is deleted with it and can no longer be opened.",
  'settings.earlierAttempts.keep': 'kept: every attempt stays at the checking service',
  'settings.earlierAttempts.keepHelp':
    "Every attempt and its report stay at the checking service, and each new attempt is compared with the student's earlier ones too: a student who revises a draft finds their own earlier attempt among the matches, with a high similarity.",
  'settings.maxAttempts': 'Attempts',
  'settings.dueAt': 'Due date',
  'settings.dueAtHelp': 'Papers after this time are marked late. Leave empty for no due date.',
  'settings.instructions': 'Instructions for students',
  'settings.whoSees': 'Who sees results',
  'settings.whoSees.instructors': 'Instructors only',
  'settings.column': 'Gradebook column',
  'settings.columnHelp':
    'What the course gradebook in your LMS gets from this assignment. A similarity is not a grade: by default the tool gives no grade, and a grade you give in the LMS is never overwritten.',
  'settings.column.comment': 'A comment beside the submission, no grade (recommended)',
  'settings.column.commentEffect':
    "Each student's similarity appears as a comment on their submission in the assignment's column; you give the grade, and no grade or course total is computed from the similarity.",
  'settings.column.assignment': "The similarity as the assignment's grade",
  'settings.column.assignmentEffect':
    "The similarity becomes the student's grade: an original paper gets 0 out of 100, students see it, and it counts in the course total.",
  'settings.column.similarityEffect':
    'The similarity goes to a column of its own, which counts in the course total and is shown to students unless you take it out of the total and hide it in the LMS.',
  'settings.column.lms.moodle.comment':
    'In Moodle the comment is the feedback of an empty grade; a grade you type in the grader report overrides it and keeps your own feedback.',
  'settings.column.lms.moodle.assignment':
    'In Moodle a grade you type in the grader report overrides the similarity and stays.',
  'settings.column.lms.canvas.comment':
    'In Canvas each paper stays in your "needs grading" list until you grade it, and its student reads the comment once you grade the paper (or post its grade, where the assignment posts grades manually).',
  'settings.column.lms.canvas.assignment':
    'In Canvas the student sees the grade at once, unless the assignment posts grades manually; a grade you give in Canvas stays yours, and a later attempt replaces only the similarity the tool posted.',
  'settings.column.lms.canvas.similarity':
    'In Canvas the column is a new assignment, "Similarity: {title}", which counts in the course total and shows its grades to students unless you set it, in Canvas, not to count and to post grades manually.',
  'settings.column.lms.brightspace.comment':
    'In Brightspace every checked paper is flagged "ready for evaluation" for you.',
  'settings.column.lms.blackboard.assignment': 'In Blackboard Ultra the grade is posted to the student at once.',
  'settings.column.lms.blackboard.similarity':
    "In Blackboard Ultra the column's grades are posted to students at once.",
  'settings.column.preview.unchanged': 'This is the current choice: saving it posts nothing more to the gradebook.',
  'settings.column.preview.nothingYet':
    'No paper is checked yet: saving this choice posts nothing now; each paper goes this way once it is checked.',
  'settings.column.preview.comment': {
    one: 'Saving this choice posts the {count} checked paper again, as a comment with no grade; a similarity the tool posted as its grade is taken out where the LMS lets the tool tell it from yours, and a grade you gave stays.',
    other:
      'Saving this choice posts the {count} checked papers again, each as a comment with no grade; a similarity the tool posted as a grade is taken out where the LMS lets the tool tell it from yours, and a grade you gave stays.',
  },
  'settings.column.preview.assignment': {
    one: 'Saving this choice posts the similarity of the {count} checked paper as its grade (out of 100); a grade you gave stays yours.',
    other:
      'Saving this choice posts the similarity of each of the {count} checked papers as its grade (out of 100); a grade you gave stays yours.',
  },
  'settings.column.preview.similarity': {
    one: "Saving this choice posts the similarity of the {count} checked paper to a column of its own; the assignment's column keeps what it holds.",
    other:
      "Saving this choice posts the similarity of each of the {count} checked papers to a column of its own; the assignment's column keeps what it holds.",
  },
  'settings.column.preview.label': 'If you save this choice:',
  'settings.column.unavailable': 'Your LMS does not let the tool add gradebook columns for this assignment.',
  'settings.bands': 'Similarity colour bands',
  'settings.bandsHelp':
    'Below the yellow band a score is green (low). Defaults: yellow from 25 %, orange from 50 %, red from 75 %.',
  'settings.band.yellow': 'Yellow (moderate) from',
  'settings.band.orange': 'Orange (high) from',
  'settings.band.red': 'Red (very high) from',
  'settings.save': 'Save settings',
  'settings.title': 'Check settings: {title}',
  'settings.whoSees.afterScoring': 'Students, once their paper is checked',
  'settings.whoSees.afterDue': 'Students, after the due date',
  'settings.showAi': 'Show students the AI-content score and report too',
  'settings.column.similarity': 'A separate "Similarity" column',
  'defaults.title': "This assignment uses the tool's defaults",
  'defaults.why':
    'A student opened this assignment before any instructor did, so the tool created it with its default settings:',
  'defaults.save':
    'Save the settings to choose your own; each paper is checked with the settings in force when it is sent.',
  'defaults.fileTypes': 'File types: {types}; up to {size} MB each.',
  'defaults.attempts': 'Attempts: {attempts}; {due}.',
  'defaults.attempts.one': 'one attempt',
  'defaults.attempts.untilDue': {
    one: '{count} attempt until the due date',
    other: '{count} attempts until the due date',
  },
  'defaults.attempts.anyTime': { one: '{count} attempt at any time', other: '{count} attempts at any time' },
  'defaults.due': 'due {date}',
  'defaults.noDue': 'no due date',
  'defaults.scoring': 'Left out of the score: {left}. Compared with: {compared}. {grammar}',
  'defaults.leftOut.references': 'references',
  'defaults.leftOut.quotes': 'quotes',
  'defaults.leftOut.smallSources': 'sources under {words} words',
  'defaults.compared.studentPapers': 'student papers',
  'defaults.compared.publications': 'publications',
  'defaults.compared.internet': 'the internet',
  'defaults.compared.repository': "the institution's repository",
  'defaults.nothing': 'nothing',
  'defaults.grammar.on': 'Grammar check on.',
  'defaults.grammar.off': 'Grammar check off.',
  'defaults.results': 'Results: {results}; {ai}.',
  'defaults.results.instructors': 'only instructors see the results',
  'defaults.results.afterScoring': 'students see their similarity as soon as their paper is checked',
  'defaults.results.afterDue': 'students see their similarity after the due date',
  'defaults.ai.shown': 'the AI score is shown to students',
  'defaults.ai.hidden': 'the AI score is hidden from students',

  // A submission's history.
  'history.title': 'History: {file}',
  'history.heading': 'History of {file}',
  'history.attempt': 'Attempt {attempt}, received',
  'history.region': "The attempt's history",
  'history.col.time': 'Time',
  'history.col.from': 'From',
  'history.col.to': 'To',
  'history.col.why': 'Why',
  'history.col.jobAttempt': 'Job attempt',

  // Deep linking's pages.
  'deepLink.title': 'Add a similarity-checked assignment',
  'deepLink.intro':
    'Students submit their paper through this assignment; each paper is checked for similarity and AI-written text, and the similarity score goes to the gradebook.',
  'deepLink.course': 'Course:',
  'deepLink.titleLabel': 'Title',
  'deepLink.add': 'Add the assignment',
  'deepLink.returning': 'Returning to your course',
  'deepLink.created': '"{title}" was created. Your browser returns to the LMS now.',
  'deepLink.continue': 'Continue to the LMS',
  'launch.notNow':
    'The tool could not open the assignment just now. Please open it again from your course in a moment.',
  'launch.notFromForm':
    "Launches come from your LMS to the tool's launch address. Open the assignment again from your course.",
  'launch.bodyIncomplete': 'The launch from your LMS was incomplete. Open the assignment again from your course.',
  'launch.unreadable': 'The launch from your LMS could not be read. Open the assignment again from your course.',
  'launch.otherBrowser':
    'This launch was not started in this browser, so the tool did not sign you in. Open the assignment again from your course.',
  'launch.stateUsed': 'This launch has expired or was already used. Open the assignment again from your course.',
  'launch.issuerDiffers': 'The launch from your LMS could not be verified. Open the assignment again from your course.',
  'launch.deploymentUnregistered':
    "This LMS (or this deployment of the tool in it) is not registered with the tool. Your LMS administrator must have this deployment added to the tool's registration, or set this activity to use the registered deployment.",
  'launch.switchedOff':
    "The tool is switched off for this LMS: its registration waits to be switched on, or was switched off. Your LMS administrator must ask the tool's administrator to switch it on.",
  'launch.keysUnreachable':
    "The LMS's signing keys could not be fetched from {host}; try again in a minute or ask the administrator to check the keys URL.",
  'launch.unstorable':
    'Your LMS sent a launch with a character the tool cannot store (a NUL character). Tell your LMS administrator.',
  'attach.title': "Check this assignment's submissions",
  'attach.introNamed':
    'Students submit in "{activity}" as usual. Each file and text entry is checked for similarity and AI-written text, and the report appears beside the submission in your LMS. The settings below are the usual ones; change them now or later from the assignment\'s settings in your LMS.',
  'attach.intro':
    "Students submit in this assignment as usual. Each file and text entry is checked for similarity and AI-written text, and the report appears beside the submission in your LMS. The settings below are the usual ones; change them now or later from the assignment's settings in your LMS.",
  'attach.titleLabel': 'Title of the check',
  'attach.whoSees': 'Who sees the report in the LMS',
  'attach.whoSees.students': 'Students too, once their submission is checked',
  'attach.showAi': 'Show students the AI-content report too',
  'attach.submit': 'Attach the check',

  // The platform-storage page (a launch checked in the LMS's window).
  'storage.title': 'Opening the tool',
  'storage.checking': 'Checking with your LMS that this launch was started here…',
  'storage.noScript':
    "Your LMS keeps this launch's sign-in in its own window, which needs JavaScript. Turn JavaScript on and open the assignment again from your course.",
  'storage.notFramed': 'This launch has to be opened from inside your LMS. Open the assignment again from your course.',
  'storage.noAnswer':
    'Your LMS did not answer the tool. Open the assignment again from your course; if this keeps happening, tell your LMS administrator.',
  'storage.notKept': 'Your LMS did not keep the launch for the tool. Open the assignment again from your course.',
  'storage.otherBrowser':
    'This launch was not started in this browser, so the tool did not sign you in. Open the assignment again from your course.',

  // The administration pages: headings and buttons.
  'admin.title': 'Administration',
  'admin.login.intro':
    "Open this page from your LMS as a platform administrator, or enter the tool's bootstrap token (the ADMIN_TOKEN setting).",
  'admin.login.token': 'Bootstrap token',
  'admin.login.tooMany': 'Too many wrong tokens were sent from your address. Wait {minutes} minutes, then try again.',
  'admin.login.continue': 'Continue',
  'admin.addresses': 'Addresses',
  'admin.platforms': 'Registered platforms',
  'admin.switchOff': 'Switch off',
  'admin.switchOn': 'Switch on',
  'admin.resendScores': 'Resend all scores',
  'admin.remove': 'Remove',
  'admin.use': 'Use',
  'admin.save': 'Save',
  'admin.accounts': 'Service accounts',
  'admin.testLogin': 'Test login',
  'admin.saveAccount': 'Save account',
  'admin.queues': 'Queues',
  'admin.failedJobs': 'Failed jobs',
  'admin.retry': 'Retry',

  // Dynamic registration's pages (their headings; the steps for each LMS stay in the view, in English).
  'registration.failedTitle': 'Registration failed',
  'registration.failedHeading': 'The tool is not registered',
  'registration.close': 'Close',
  'registration.doneTitle': 'Registered',
  'registration.doneHeading': 'The tool is registered',
  'registration.next': 'What to do next',

  // The Asset Processor's own launches: report review, the processor's settings, the EULA.
  'apLaunch.couldNotOpen': 'Could not open the tool',
  'apLaunch.missing': 'Your LMS sent a launch without information the tool needs. Tell your LMS administrator.',
  'apLaunch.reportUnavailable': 'Report not available',
  'apLaunch.checkingTitle': 'Being checked',
  'apLaunch.checking': 'This file is being checked: {state}. Its report appears here once the check is done.',
  'apLaunch.failedTitle': 'The file could not be checked',
  'apLaunch.notForRoleTitle': 'Not available for your role',
  'apLaunch.settingsInstructorsOnly': 'Only instructors of the course can change the check settings.',
  'apLaunch.noCourse':
    'The LMS did not say which course this assignment belongs to. Open the settings from the assignment in your course.',
  'apLaunch.notAttachedTitle': 'Not attached',
  'apLaunch.notAttached':
    "The tool is not attached to this assignment (its processor was removed, or attached in another course). Add it again from the assignment's editor.",
  'apLaunch.noTerms':
    'This tool has no terms to accept. Your LMS can stop asking for them (its EULA setting for the tool).',
  'apLaunch.notAvailableTitle': 'Not available',
  'apLaunch.termsFromLms': 'Terms are accepted from the page your LMS opens for them. Open it again from your LMS.',
  'apLaunch.lmsGone': 'Your LMS is no longer registered with the tool. Ask your LMS administrator.',
  // Submission review (the LMS's gradebook opens one student's submissions of an assignment).
  'review.title': 'Submissions of {name}',
  'review.heading': 'Submissions of {name}',
  'review.assignment': 'Assignment: {title}',
  'review.none': '{name} has no submissions to this assignment yet.',
  'review.region': "The student's submissions",
  'review.col.attempt': 'Attempt',
  'review.col.submitted': 'Submitted',
  'review.col.file': 'File',
  'review.col.status': 'Status',
  'review.col.similarity': 'Similarity',
  'review.col.ai': 'AI',
  'review.col.reports': 'Reports',
  'review.noSuchStudent': 'There is no such student in your course.',
  'reviewLaunch.notYoursTitle': 'Not your submission',
  'reviewLaunch.notYours':
    "You can open only your own submissions. This review is of another person's submission, so the tool does not show it.",
  'reviewLaunch.noCourse':
    'The LMS did not say which course this review belongs to. Open it again from the gradebook of your course.',
  'reviewLaunch.noAssignmentTitle': 'Nothing to review yet',
  'reviewLaunch.noAssignment': 'Nobody has opened this assignment in the tool yet, so it has no submissions to review.',
  'eula.title': 'Terms of use',
  'eula.accepted':
    'You accepted the terms. Your LMS closes this page now, and your submitted files are checked from now on.',
  'eula.intro':
    'Before the tool checks your submitted files for similarity and AI content, please read and accept its terms.',
  'eula.termsAt': 'The terms are on this page:',
  'eula.accept': 'Accept',
} as const satisfies Record<string, Message>;
