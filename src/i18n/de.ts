// German, complete: every page (the student's, the instructor's, the administrator's, the LMS's launches). A key
// left out would fall back to English (index.ts); test/i18n/language.page.test.ts refuses that.
import type { Translation } from './translation.js';

export const de: Translation = {
  'size.bytes': { one: '{size} Byte', other: '{size} Bytes' },
  'size.kilobytes': '{size} KB',
  'size.megabytes': '{size} MB',

  'fileType.pdf': 'PDF',
  'fileType.docx': 'Word (DOCX)',
  'fileType.doc': 'Word 97-2003 (DOC)',
  'fileType.odt': 'OpenDocument-Text (ODT)',
  'fileType.rtf': 'Rich Text (RTF)',
  'fileType.txt': 'reiner Text (TXT)',
  'fileType.html': 'Webseite (HTML)',

  'student.signedInAs': 'Angemeldet als',
  'student.you': 'Sie',
  'student.instructions': 'Hinweise',
  'student.whatToSubmit': 'Was Sie einreichen',
  'student.fileTypes': 'Dateitypen: {types}',
  'student.largestFile': 'Größte Datei: {size} MB',
  'student.attempts': 'Versuche: {count}',
  'student.attemptsUntilDue': 'Versuche: {count} (bis zum Abgabetermin)',
  'student.due': 'Abgabe bis:',
  'student.submitYourPaper': 'Arbeit einreichen',
  'student.chooseFile': 'Datei auswählen oder hierher ziehen',
  'student.fileHelp': '{types}; bis zu {size} MB.',
  'student.lateWarning': 'Der Abgabetermin ist verstrichen: Diese Abgabe wird als verspätet markiert.',
  'student.submit': 'Einreichen',
  'student.uploading': 'Wird hochgeladen',
  'student.yourSubmissions': 'Ihre Abgaben',
  'student.card.heading': 'Ihr Ergebnis',
  'student.card.attemptOf': 'Versuch {attempt} von {limit}',
  'student.card.file': '{file}, eingegangen am {time}',
  'student.card.similarity': 'Ähnlichkeit',
  'student.card.viewReport': 'Bericht ansehen',
  'student.card.waiting': 'Ergebnisse kommen meist innerhalb von 10–15 Minuten; diese Seite aktualisiert sich selbst.',
  'student.card.resultArrived': 'Ergebnis eingegangen {time}',
  'student.replaced': 'Ersetzt durch Versuch {attempt}: Sein Bericht wurde beim Prüfdienst gelöscht.',
  'student.newAttempt': 'Neuen Versuch einreichen',
  'student.receipt': 'Quittung',
  'student.resultsForInstructors':
    'Die Ähnlichkeitsergebnisse dieser Aufgabe sieht nur Ihre Lehrperson; Studierenden werden sie nicht angezeigt.',
  'student.resultsAfterDue': 'Die Ähnlichkeitsergebnisse erscheinen hier nach dem Abgabetermin.',
  'student.nothingYet': 'Noch nichts eingereicht.',
  'student.nothingYetCanSubmit':
    'Wählen Sie oben Ihre Datei aus und reichen Sie sie ein; die Quittung und später das Ergebnis erscheinen hier.',
  'student.nothingYetCannotSubmit': 'Ihre Abgaben erscheinen hier, sobald Sie einreichen können.',
  'student.col.attempt': 'Versuch',
  'student.col.file': 'Datei',
  'student.col.received': 'Eingegangen',
  'student.col.status': 'Status',
  'student.col.similarity': 'Ähnlichkeit',
  'student.col.reports': 'Berichte',
  'student.col.receipt': 'Quittung',
  'student.late': '(verspätet)',
  'student.aiScore': 'KI {score}',
  'student.reportOfAttempt': ', Versuch {attempt}',
  'student.download': 'Herunterladen',
  'student.receiptOfAttempt': ' (Quittung von Versuch {attempt})',
  'student.refused.oneSubmission': 'Diese Aufgabe nimmt eine Abgabe an, und Ihre liegt bereits vor.',
  'student.refused.attemptsUsed': {
    one: 'Sie haben den einen Versuch dieser Aufgabe bereits genutzt.',
    other: 'Sie haben alle {count} Versuche dieser Aufgabe genutzt.',
  },
  'report.noSuch':
    'Diesen Bericht gibt es nicht. Gehen Sie zurück zur Aufgabe und öffnen Sie den Bericht aus ihrer Liste.',
  'report.othersPaper':
    'Dieser Bericht gehört zur Arbeit einer anderen Person. Öffnen Sie Ihre eigenen Berichte aus der Aufgabe.',
  'report.notShown':
    'Ihre Lehrkraft hat diesen Bericht für Sie nicht freigegeben. Ihre Ergebnisse erscheinen auf der Aufgabenseite, sobald Ihre Lehrkraft sie zeigt.',
  'report.notReady':
    'Der Bericht ist noch nicht fertig: Die Arbeit wird noch geprüft. Die Aufgabenseite zeigt, wann die Prüfung abgeschlossen ist; öffnen Sie den Bericht dann von dort.',
  'report.replaced':
    'Dieser Versuch wurde durch einen späteren ersetzt: Seine Arbeit und sein Bericht wurden beim Prüfdienst gelöscht, damit der spätere Versuch nicht mit ihm verglichen wird. Seine Ähnlichkeit bleibt im Verlauf.',
  'student.refused.closed': 'Der Abgabetermin ist verstrichen: Weitere Abgaben sind nicht mehr möglich.',
  'student.refused.submitInLms':
    'Arbeiten für diese Aufgabe werden im LMS abgegeben, in der Aufgabe selbst, und das Werkzeug erhält sie von dort. Reichen Sie Ihre Arbeit im LMS ein.',

  'upload.empty': 'Die Datei ist leer. Wählen Sie die Datei, die Ihre Arbeit enthält.',
  'upload.wrongType': 'Diese Datei ist eine {type}-Datei. Diese Aufgabe nimmt an: {allowed}.',
  'upload.unknownType': 'Diese Datei ist kein Dokumenttyp, den das Werkzeug kennt. Diese Aufgabe nimmt an: {allowed}.',
  'upload.tooLarge': 'Die Datei ist größer, als diese Aufgabe erlaubt (höchstens {size} MB).',
  'upload.notMultipart': 'Senden Sie die Datei als Formular-Upload (multipart/form-data) im Feld „file“.',
  'upload.unreadable': 'Der Upload konnte nicht gelesen werden.',
  'upload.stalled':
    'Der Upload ist ins Stocken geraten: {seconds} Sekunden lang kam nichts an, daher wurde er abgebrochen und nichts gespeichert. Bitte senden Sie die Datei erneut.',
  'upload.tooSlow':
    'Der Upload war zu langsam: über {seconds} Sekunden kamen weniger als {kb} KB pro Sekunde an, daher wurde er abgebrochen und nichts gespeichert. Bitte senden Sie die Datei über eine bessere Verbindung erneut.',
  'upload.wrongField': 'Die Datei muss im Formularfeld „file“ kommen.',
  'upload.interrupted': 'Der Upload wurde unterbrochen. Bitte versuchen Sie es erneut.',
  'upload.oneFile': 'Senden Sie eine Datei pro Abgabe.',
  'upload.tooManyParts': 'Der Upload hat mehr Teile, als eine Abgabe braucht.',
  'upload.tooManyFields': 'Der Upload hat mehr Felder, als eine Abgabe braucht.',
  'upload.malformed': 'Der Upload konnte nicht gelesen werden: Die Formulardaten sind fehlerhaft.',
  'upload.noFile': 'Es wurde keine Datei angehängt: Wählen Sie eine Datei aus.',
  'student.script.wrongType':
    'Diese Aufgabe nimmt Dateien dieses Typs nicht an ({types}). Wählen Sie eine andere Datei; es wurde nichts gesendet.',
  'student.script.tooLarge':
    'Die Datei ist größer, als diese Aufgabe erlaubt (höchstens {size} MB). Wählen Sie eine kleinere Datei; es wurde nichts gesendet.',
  'student.script.empty': 'Die Datei ist leer. Wählen Sie die Datei, die Ihre Arbeit enthält.',
  'student.script.chooseFirst': 'Wählen Sie zuerst eine Datei aus.',
  'student.script.uploadingFile': '{name} wird hochgeladen…',
  'student.script.arrived': '✓ {name} ist am {time} eingegangen.',
  'student.script.soon': 'Ergebnisse meist innerhalb von 10–15 Minuten.',
  'student.script.duplicate':
    '✓ {name} wurde bereits als Versuch {attempt} eingereicht; es wurde nichts Neues gesendet.',
  'student.script.receipt': 'Quittung {id} · SHA-256 {sha256} · {size}',
  'student.script.chooseAnother': 'Wählen Sie eine andere Datei und reichen Sie sie erneut ein.',
  'student.script.failed': 'Das Hochladen hat nicht geklappt. Bitte versuchen Sie es noch einmal.',
  'student.script.connectionLost':
    'Die Verbindung ist während des Hochladens abgebrochen. Bitte versuchen Sie es noch einmal.',

  'state.received': 'Eingegangen',
  'state.uploading': 'Zur Prüfung gesendet',
  'state.processing': 'Wird geprüft',
  'state.checked': 'Geprüft',
  'state.rejected': 'Nicht angenommen',
  'state.failed': 'Konnte nicht geprüft werden',
  'state.not-submitted': 'Nicht abgegeben',

  'report.student.similarity': 'Ähnlichkeitsbericht',
  'report.student.ai': 'KI-Bericht',
  'report.student.summary': 'Zusammenfassung',
  'report.student.grammar': 'Grammatikbericht',
  'report.notAvailable': 'Bericht nicht verfügbar',
  'report.otherCourse': 'Dieser Bericht gehört zu einem anderen Kurs. Öffnen Sie ihn aus seinem eigenen Kurs.',
  'report.linkExpired': 'Dieser Link zum Bericht ist abgelaufen. Öffnen Sie den Bericht erneut über die Aufgabe.',

  'receipt.title': 'Abgabequittung',
  'receipt.assignment': 'Aufgabe',
  'receipt.submissionId': 'Abgabe-ID',
  'receipt.attempt': 'Versuch',
  'receipt.receivedAt': 'Eingegangen am',
  'receipt.file': 'Datei',
  'receipt.size': 'Größe',
  'receipt.late': 'Nach dem Abgabetermin eingereicht.',

  'band.green': 'niedrig',
  'band.yellow': 'mäßig',
  'band.orange': 'hoch',
  'band.red': 'sehr hoch',
  'viewer.student': 'Student/in',
  'viewer.file': 'Datei',
  'viewer.checked': 'Geprüft',
  'viewer.similarity': 'Ähnlichkeit',
  'viewer.ai': 'KI-geschriebener Text',
  'viewer.aiCaveat': '(eine Schätzung, kein Beweis)',
  'viewer.zoom': 'Zoom',
  'viewer.zoomOut': 'Verkleinern',
  'viewer.zoomIn': 'Vergrößern',
  'viewer.fitWidth': 'An Breite anpassen',
  'viewer.download': 'PDF herunterladen',
  'viewer.back': 'Zurück zur Aufgabe',
  'viewer.loading': 'Der Bericht wird geladen…',
  'viewer.noScript':
    'Diese Seite zeigt den Bericht mit einem Skript an, und Skripte sind in Ihrem Browser ausgeschaltet: Laden Sie das PDF herunter, um ihn zu lesen.',
  'viewer.script.pageOf': 'Seite {page} von {pages}',
  'viewer.script.shown': {
    one: '{count} Seite. Über den Link zum Herunterladen können Sie eine Kopie behalten.',
    other: '{count} Seiten. Über den Link zum Herunterladen können Sie eine Kopie behalten.',
  },
  'viewer.script.failed':
    'Der Bericht kann hier nicht angezeigt werden. Öffnen Sie ihn über den Link zum Herunterladen.',

  'session.openFromCourse': 'Bitte öffnen Sie die Aufgabe aus Ihrem Kurs',
  'session.ended': 'Ihre Sitzung ist abgelaufen. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'session.notOnItsOwn':
    'Öffnen Sie diese Seite über die Aufgabe in Ihrem Kurs: Für sich allein lässt sie sich nicht öffnen.',
  'refused.notFound': 'Nicht gefunden',
  'refused.notAvailable': 'Nicht verfügbar',
  'refused.notForYourRole': 'Für Ihre Rolle nicht verfügbar',
  'refused.noSuchAssignment': 'Diese Aufgabe gibt es nicht. Öffnen Sie sie erneut aus Ihrem Kurs.',
  'refused.otherCourseAssignment': 'Diese Aufgabe gehört zu einem anderen Kurs. Öffnen Sie sie aus ihrem eigenen Kurs.',
  'refused.roleNoAccess':
    'Ihre Rolle in diesem Kurs gibt keinen Zugang zu dieser Aufgabe. Falls sie das sollte, bitten Sie Ihre Lehrperson, Ihre Rolle im Kurs zu prüfen.',
  'refused.noPage': 'Unter dieser Adresse gibt es keine Seite.',
  'refused.otherSite':
    'Dieses Formular wurde von einer anderen Website gesendet, deshalb wurde es nicht ausgeführt. Öffnen Sie die Seite aus Ihrem Kurs und versuchen Sie es noch einmal.',
  'refused.notAccepted': 'Nicht angenommen',
  'refused.notSubmitted': 'Nicht eingereicht',
  'error.title': 'Fehler',
  'error.unstorable':
    'Das Formular enthält ein Zeichen, das nicht gespeichert werden kann (ein NUL-Zeichen). Entfernen Sie es und senden Sie das Formular erneut.',
  'error.unreadable': 'Die Anfrage konnte nicht gelesen werden.',
  'error.tooLarge': 'Die Anfrage ist zu groß.',
  'error.bodyEncoding':
    'Der Inhalt ist mit einem Content-Encoding gesendet, das das Werkzeug nicht liest ({encoding}): Senden Sie ihn unkomprimiert oder als gzip, deflate oder br.',
  'error.bodyCharset':
    'Der Inhalt ist in einem Zeichensatz geschrieben, den das Werkzeug nicht liest ({charset}): Senden Sie ihn als UTF-8.',
  'error.bodyUndecodable':
    'Der Inhalt ließ sich nicht entpacken: Er ist nicht, was sein Content-Encoding angibt. Senden Sie ihn noch einmal oder unkomprimiert.',
  'error.bodyNotJson': 'Der Inhalt ist kein gültiges JSON.',
  'error.bodyTooLarge':
    'Der Inhalt ist größer, als diese Adresse annimmt (höchstens {size}): Senden Sie weniger in einer Anfrage.',
  'error.ours': 'Bei uns ist etwas schiefgegangen. Bitte versuchen Sie es gleich noch einmal.',
  'busy.title': 'Ausgelastet',
  'busy.launch':
    'Das Werkzeug öffnet gerade viele andere Aufgaben. Bitte öffnen Sie diese in einigen Sekunden noch einmal.',
  'busy.upload':
    'Das Werkzeug nimmt gerade viele andere Arbeiten entgegen, deshalb ist diese nicht eingegangen. Bitte senden Sie sie in einigen Sekunden noch einmal.',
  'busy.pages': 'Das Werkzeug ist gerade ausgelastet. Bitte versuchen Sie es in einigen Sekunden noch einmal.',

  'launch.couldNotOpen': 'Die Aufgabe konnte nicht geöffnet werden',
  'launch.roleNoAccess':
    'Dieses Werkzeug ist für die Lehrenden und Studierenden des Kurses. Ihre Rolle in diesem Kurs gibt keinen Zugang dazu; falls sie das sollte, bitten Sie Ihre Lehrperson, Ihre Rolle im Kurs zu prüfen.',
  'launch.fromAssignmentTitle': 'Öffnen Sie das Werkzeug aus einer Aufgabe',
  'launch.fromAssignment':
    'Das Werkzeug arbeitet innerhalb einer Kursaufgabe. Öffnen Sie es über die Aufgabe in Ihrem Kurs.',
  'launch.incomplete':
    'Ihr LMS hat einen Start ohne Angaben gesendet, die das Werkzeug braucht. Wenden Sie sich an die Administration Ihres LMS.',
  'launch.unregistered':
    'Dieses LMS ist beim Werkzeug nicht registriert, oder seine Registrierung ist ausgeschaltet. Die Administration Ihres LMS muss das Werkzeug in diesem LMS registrieren oder diese Aktivität auf die bestehende Registrierung des Werkzeugs umstellen.',
  'launch.notOffered':
    'Ihr LMS hat das Werkzeug für etwas geöffnet, das es nicht anbietet. Öffnen Sie die Aufgabe aus Ihrem Kurs; wenn dieser Link wiederholt hierher führt, wenden Sie sich an die Administration Ihres LMS.',
  'launch.notVerified':
    'Der Start aus Ihrem LMS konnte nicht überprüft werden. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs; wenn das wiederholt passiert, wenden Sie sich an die Administration Ihres LMS.',
  'launch.notNow':
    'Das Werkzeug konnte die Aufgabe gerade nicht öffnen. Bitte öffnen Sie sie gleich noch einmal aus Ihrem Kurs.',
  'launch.notFromForm':
    'Starts kommen von Ihrem LMS an die Startadresse des Werkzeugs. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'launch.bodyIncomplete': 'Der Start aus Ihrem LMS war unvollständig. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'launch.unreadable':
    'Der Start aus Ihrem LMS konnte nicht gelesen werden. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'launch.otherBrowser':
    'Dieser Start wurde nicht in diesem Browser begonnen, deshalb hat das Werkzeug Sie nicht angemeldet. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'launch.stateUsed':
    'Dieser Start ist abgelaufen oder wurde bereits verwendet. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'launch.issuerDiffers':
    'Der Start aus Ihrem LMS konnte nicht überprüft werden. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'launch.deploymentUnregistered':
    'Dieses LMS (oder diese Einbindung des Werkzeugs darin) ist beim Werkzeug nicht registriert. Die Administration Ihres LMS muss diese Einbindung zur Registrierung des Werkzeugs hinzufügen lassen oder diese Aktivität auf die registrierte Einbindung umstellen.',
  'launch.switchedOff':
    'Das Werkzeug ist für dieses LMS ausgeschaltet: Seine Registrierung wartet darauf, eingeschaltet zu werden, oder wurde ausgeschaltet. Die Administration Ihres LMS muss die Administration des Werkzeugs bitten, sie einzuschalten.',
  'launch.unstorable':
    'Ihr LMS hat einen Start mit einem Zeichen gesendet, das das Werkzeug nicht speichern kann (ein NUL-Zeichen). Wenden Sie sich an die Administration Ihres LMS.',

  'storage.title': 'Das Werkzeug wird geöffnet',
  'storage.checking': 'Es wird bei Ihrem LMS geprüft, ob dieser Start hier begonnen wurde…',
  'storage.noScript':
    'Ihr LMS bewahrt die Anmeldung dieses Starts in seinem eigenen Fenster auf, und dafür wird JavaScript gebraucht. Schalten Sie JavaScript ein und öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'storage.notFramed':
    'Dieser Start muss innerhalb Ihres LMS geöffnet werden. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'storage.noAnswer':
    'Ihr LMS hat dem Werkzeug nicht geantwortet. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs; wenn das wiederholt passiert, wenden Sie sich an die Administration Ihres LMS.',
  'storage.notKept':
    'Ihr LMS hat den Start für das Werkzeug nicht aufbewahrt. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',
  'storage.otherBrowser':
    'Dieser Start wurde nicht in diesem Browser begonnen, deshalb hat das Werkzeug Sie nicht angemeldet. Öffnen Sie die Aufgabe erneut aus Ihrem Kurs.',

  // The instructor's dashboard.
  'report.instructor.similarity': 'Ähnlichkeit',
  'report.instructor.ai': 'KI',
  'report.instructor.summary': 'Zusammenfassung',
  'report.instructor.grammar': 'Grammatik',
  'dashboard.notice.noScoreToSend':
    'Für {name} wurde nichts gesendet: Nur eine geprüfte Arbeit hat eine Bewertung, und diese ist {state}.',
  'dashboard.notice.notOnItsWay':
    'Für {name} wurde nichts gesendet: Nur eine Arbeit, die noch auf dem Weg zu einem Ergebnis ist, kann erneut gesendet werden, und diese ist {state}.',
  'dashboard.notice.sendingNow':
    'Die Arbeit von {name} wird gerade an den Prüfdienst gesendet; es wurde nichts weiter eingereiht.',
  'dashboard.notice.alreadyQueued': 'Die Arbeit von {name} ist bereits eingereiht; sie geht gleich hinaus.',
  'dashboard.notice.queued.upload': 'Die Arbeit wird erneut an den Prüfdienst gesendet ({name}).',
  'dashboard.notice.queued.result': 'Der Prüfdienst wird erneut nach dem Ergebnis gefragt ({name}).',
  'dashboard.notice.queued.grade': 'Die Bewertung wird erneut an die Bewertungsübersicht gesendet ({name}).',
  'dashboard.notice.queued.reports': 'Die Berichte werden erneut an das LMS gesendet ({name}).',
  'dashboard.notice.noGradebook':
    'Nichts wurde gesendet: Das LMS hat dieser Aufgabe keine Spalte in der Bewertungsübersicht gegeben und erlaubt keine anzulegen; das Werkzeug sendet keine Bewertungen.',
  'dashboard.notice.reportsNotGrades':
    'Nichts wurde an die Bewertungsübersicht gesendet: In dieser Aufgabe berichtet das Werkzeug neben jeder Datei im LMS und sendet keine Bewertung.',
  'dashboard.notice.scoresQueued': {
    one: '{count} Bewertung für die Bewertungsübersicht eingereiht.',
    other: '{count} Bewertungen für die Bewertungsübersicht eingereiht.',
  },
  'dashboard.notice.notDeleted': 'Die Arbeit von {name} wurde nicht gelöscht. {reason}',
  'dashboard.notice.deleted':
    'Versuch {attempt} von {name} ist gelöscht, hier und beim Prüfdienst; die Person kann erneut abgeben.',
  'dashboard.histogram.barTitle': '{from}-{to} %: {count}',
  'dashboard.histogram.none': 'Noch keine geprüften Abgaben.',
  'dashboard.histogram.bar': '{count} zwischen {from} und {to} %',
  'dashboard.histogram.label': 'Ähnlichkeit im Kurs, {count} geprüft',
  'dashboard.folderFailed': 'Der Prüfdienst hat die Einstellungen dieser Aufgabe noch nicht übernommen: {reason}',
  'dashboard.similarityInClass': 'Ähnlichkeit im Kurs',
  'dashboard.students': 'Studierende ({shown} von {total})',
  'dashboard.filter.status': 'Status',
  'dashboard.filter.band': 'Bereich',
  'dashboard.filter.all': 'alle',
  'dashboard.filter.apply': 'Filtern',
  'dashboard.exportCsv': 'Als CSV exportieren',
  'dashboard.empty.noStudents': 'Noch keine Studierenden.',
  'dashboard.empty.noMatch': 'Niemand passt zu diesem Filter.',
  'dashboard.empty.noStudentsHelp':
    'Die Teilnehmerliste des Kurses erscheint, sobald das LMS sie teilt; Studierende geben über diese Aufgabe im Kurs ab.',
  'dashboard.empty.noMatchHelp': 'Wählen Sie in den Filtern „alle“, um alle Studierenden zu sehen.',
  'dashboard.col.student': 'Student/in',
  'dashboard.col.status': 'Status',
  'dashboard.col.similarity': 'Ähnlichkeit',
  'dashboard.col.ai': 'KI',
  'dashboard.col.submitted': 'Abgegeben',
  'dashboard.col.actions': 'Aktionen',
  'dashboard.summary.submitted': '{submitted} von {total} abgegeben',
  'dashboard.summary.missing': '{count} fehlen',
  'dashboard.summary.inRed': '{count} bei {percent} oder mehr',
  'dashboard.summary.sinceVisit': {
    one: '{count} Ergebnis seit Ihrem letzten Besuch ({time}) eingegangen',
    other: '{count} Ergebnisse seit Ihrem letzten Besuch ({time}) eingegangen',
  },
  'dashboard.summary.nothingNew': 'Keine neuen Ergebnisse seit Ihrem letzten Besuch ({time})',
  'dashboard.new': 'neu',
  'dashboard.downloadReports': 'Alle Berichte herunterladen (ZIP)',
  'dashboard.gradebookProblem': 'Bewertungsübersicht: {reason}',
  'dashboard.gradebook.posted': 'An die Bewertungsübersicht gesendet',
  'gradebook.comment.similarity': 'Ähnlichkeit {similarity} %. Der vollständige Bericht ist in der Aufgabe.',
  'gradebook.comment.checked': 'Auf Ähnlichkeit geprüft. Der Bericht ist in der Aufgabe.',
  'gradebook.comment.deleted': 'Die Abgabe wurde von einer Lehrperson gelöscht.',
  'assetReport.title.originality': 'Originalität',
  'assetReport.title.ai': 'KI-Inhalt',
  'assetReport.similarity': 'Ähnlichkeit {percent}',
  'assetReport.ai': 'KI-geschriebener Inhalt geschätzt auf {percent}',
  'assetReport.band.green': 'niedrig',
  'assetReport.band.yellow': 'mittel',
  'assetReport.band.orange': 'hoch',
  'assetReport.band.red': 'sehr hoch',
  'assetReport.fetching': 'das Werkzeug holt die Datei vom LMS, um sie zu prüfen.',
  'assetReport.waiting': 'Ergebnisse kommen meist innerhalb von 15 Minuten.',
  'assetReport.refused': 'Der Prüfdienst hat die Datei abgelehnt.',
  'assetReport.checkFailed': 'Die Prüfung dieser Datei ist beim Prüfdienst fehlgeschlagen.',
  'assetReport.notChecked': 'Die Datei konnte nicht geprüft werden.',
  'dashboard.attempts': { one: '{count} Versuch', other: '{count} Versuche' },
  'dashboard.aiCaveat': 'KI-Werte sind Schätzungen, keine Beweise: Lesen Sie den KI-Bericht, bevor Sie danach handeln.',
  'dashboard.reportOf': ': Bericht zu {name}',
  'dashboard.action.resend': 'Erneut senden',
  'dashboard.action.resyncGrade': 'Bewertung erneut senden',
  'dashboard.action.resyncComment': 'Ergebnis erneut an die Bewertungsübersicht senden',
  'dashboard.action.resendReports': 'Berichte erneut senden',
  'dashboard.action.delete': 'Löschen',
  'dashboard.confirmDelete':
    'Den letzten Versuch von {name} löschen, hier und beim Prüfdienst? Die Person kann danach erneut abgeben.',
  'dashboard.actionFor': ' für {name}',
  'dashboard.gradebookUse.reports':
    'Das Werkzeug prüft die Dateien, die Studierende in der Aufgabe des LMS abgeben, und zeigt jeden Bericht dort neben der Datei; es sendet keine Bewertung an die Bewertungsübersicht.',
  'dashboard.gradebookUse.none':
    'Das LMS hat dieser Aufgabe keine Spalte in der Bewertungsübersicht gegeben und erlaubt keine anzulegen: Das Werkzeug sendet keine Bewertungen; die Ergebnisse stehen hier.',
  'dashboard.gradebookUse.comment':
    'Die Bewertungsübersicht des LMS erhält den Ähnlichkeitswert jeder Person als Kommentar neben der Abgabe in der Spalte dieser Aufgabe; das Werkzeug vergibt keine Bewertung, und Ihre eigene Bewertung bleibt Ihre.',
  'dashboard.gradebookUse.assignment':
    'Die Bewertungsübersicht des LMS erhält den Ähnlichkeitswert jeder Person als Bewertung in der Spalte dieser Aufgabe (0 bis 100); Studierende sehen ihn, und er zählt in der Kurssumme. Eine Bewertung, die Sie im LMS vergeben haben, wird nicht überschrieben. Ändern Sie das unter Einstellungen.',
  'dashboard.gradebookUse.similarity':
    'Die Bewertungsübersicht des LMS erhält den Ähnlichkeitswert jeder Person in einer eigenen Spalte („Ähnlichkeit: {title}“), die in der Kurssumme zählt, solange Sie sie dort nicht herausnehmen. Ändern Sie das unter Einstellungen.',
  'dashboard.resyncAll': 'Alle Bewertungen erneut an die Bewertungsübersicht senden',
  'nav.label': 'Aufgabe',
  'nav.submissions': 'Abgaben',
  'nav.settings': 'Prüfeinstellungen',
  'nav.admin': 'Verwaltung',
  'defaults.title': 'Diese Aufgabe verwendet die Standardeinstellungen des Werkzeugs',
  'defaults.why':
    'Eine Studentin oder ein Student hat diese Aufgabe vor allen Lehrenden geöffnet, daher hat das Werkzeug sie mit seinen Standardeinstellungen angelegt:',
  'defaults.save':
    'Speichern Sie die Einstellungen, um Ihre eigenen zu wählen; jede Arbeit wird mit den Einstellungen geprüft, die beim Senden gelten.',
  'defaults.fileTypes': 'Dateitypen: {types}; bis {size} MB je Datei.',
  'defaults.attempts': 'Versuche: {attempts}; {due}.',
  'defaults.attempts.one': 'ein Versuch',
  'defaults.attempts.untilDue': {
    one: '{count} Versuch bis zum Abgabetermin',
    other: '{count} Versuche bis zum Abgabetermin',
  },
  'defaults.attempts.anyTime': { one: '{count} Versuch jederzeit', other: '{count} Versuche jederzeit' },
  'defaults.due': 'fällig am {date}',
  'defaults.noDue': 'kein Abgabetermin',
  'defaults.scoring': 'Nicht gewertet: {left}. Verglichen mit: {compared}. {grammar}',
  'defaults.leftOut.references': 'Literaturangaben',
  'defaults.leftOut.quotes': 'Zitate',
  'defaults.leftOut.smallSources': 'Quellen unter {words} Wörtern',
  'defaults.compared.studentPapers': 'Arbeiten von Studierenden',
  'defaults.compared.publications': 'Veröffentlichungen',
  'defaults.compared.internet': 'dem Internet',
  'defaults.compared.repository': 'dem Repositorium der Einrichtung',
  'defaults.nothing': 'nichts',
  'defaults.grammar.on': 'Grammatikprüfung an.',
  'defaults.grammar.off': 'Grammatikprüfung aus.',
  'defaults.results': 'Ergebnisse: {results}; {ai}.',
  'defaults.results.instructors': 'nur Lehrende sehen die Ergebnisse',
  'defaults.results.afterScoring': 'Studierende sehen ihre Ähnlichkeit, sobald ihre Arbeit geprüft ist',
  'defaults.results.afterDue': 'Studierende sehen ihre Ähnlichkeit nach dem Abgabetermin',
  'defaults.ai.shown': 'der KI-Wert wird Studierenden gezeigt',
  'defaults.ai.hidden': 'der KI-Wert bleibt Studierenden verborgen',

  'refused.instructorsOnly':
    'Nur Lehrende des Kurses können das tun. Öffnen Sie die Aufgabe in Ihrem Kurs, um Ihre eigene Ansicht zu sehen.',
  'refused.notInYourCourse':
    'Diese Aufgabe gehört nicht zu dem Kurs, den Sie geöffnet haben. Öffnen Sie sie in ihrem eigenen Kurs.',
  'refused.noSuchSubmission':
    'Diese Abgabe gibt es in dieser Aufgabe nicht; vielleicht wurde sie gelöscht. Kehren Sie zur Liste der Abgaben zurück.',
  'launch.instructorsAdd':
    'Nur Lehrende können das Werkzeug zu einem Kurs hinzufügen. Bitten Sie eine Lehrperson des Kurses darum.',
  'launch.keysUnreachable':
    'Die Signaturschlüssel des LMS konnten nicht von {host} abgerufen werden; versuchen Sie es in einer Minute erneut oder bitten Sie die Administration, die Adresse der Schlüssel zu prüfen.',

  'settings.title': 'Prüfeinstellungen: {title}',
  'settings.saved': 'Gespeichert.',
  'settings.deadline': 'Abgabetermin und Versuche',
  'settings.dueAt': 'Abgabetermin',
  'settings.dueAtZone': 'Zeitzone: {zone}',
  'settings.dueAtHelp':
    'Arbeiten nach diesem Zeitpunkt werden als verspätet markiert. Leer lassen für keinen Abgabetermin.',
  'settings.resubmission': 'Erneute Abgaben',
  'settings.resubmission.none': 'keine: eine Abgabe',
  'settings.resubmission.untilDue': 'bis zum Abgabetermin',
  'settings.resubmission.anyTime': 'jederzeit',
  'settings.resubmissionHelp':
    'Jeder neue Versuch wird erneut geprüft; in die Bewertungsübersicht geht der Wert des letzten Versuchs.',
  'settings.earlierAttempts': 'Frühere Versuche beim Prüfdienst',
  'settings.earlierAttempts.replace': 'durch den nächsten Versuch ersetzt',
  'settings.earlierAttempts.replaceHelp':
    'Reicht jemand erneut ein, wird die Arbeit des früheren Versuchs beim Prüfdienst gelöscht, bevor der neue geprüft wird, damit eine Überarbeitung nicht mit dem eigenen Entwurf verglichen wird. Die Ähnlichkeit des früheren Versuchs bleibt in seinem Verlauf, als ersetzt markiert; sein Bericht wird mit ihm gelöscht und lässt sich nicht mehr öffnen.',
  'settings.earlierAttempts.keep': 'behalten: jeder Versuch bleibt beim Prüfdienst',
  'settings.earlierAttempts.keepHelp':
    'Jeder Versuch und sein Bericht bleiben beim Prüfdienst, und jeder neue Versuch wird auch mit den früheren verglichen: Wer einen Entwurf überarbeitet, findet den eigenen früheren Versuch unter den Treffern, mit hoher Ähnlichkeit.',
  'settings.maxAttempts': 'Versuche',
  'settings.whoSees': 'Wer die Ergebnisse sieht',
  'settings.whoSees.instructors': 'Nur Lehrende',
  'settings.whoSees.afterScoring': 'Studierende, sobald ihre Arbeit geprüft ist',
  'settings.whoSees.afterDue': 'Studierende, nach dem Abgabetermin',
  'settings.showAi': 'Studierenden auch den KI-Wert und den KI-Bericht zeigen',
  'settings.submissions': 'Dateien und Hinweise',
  'settings.fileTypes': 'Dateitypen, die Studierende senden dürfen',
  'settings.maxFileMb': 'Größte Datei (MB)',
  'settings.maxFileMbHelp': 'Höchstens 100 MB: Mehr nimmt der Prüfdienst nicht an.',
  'settings.instructions': 'Hinweise für Studierende',
  'settings.column': 'Spalte in der Bewertungsübersicht',
  'settings.columnHelp':
    'Was die Bewertungsübersicht des Kurses in Ihrem LMS von dieser Aufgabe erhält. Ein Ähnlichkeitswert ist keine Note: Standardmäßig vergibt das Werkzeug keine Bewertung, und eine Bewertung, die Sie im LMS vergeben, wird nie überschrieben.',
  'settings.column.comment': 'Ein Kommentar neben der Abgabe, keine Bewertung (empfohlen)',
  'settings.column.commentEffect':
    'Der Ähnlichkeitswert erscheint als Kommentar zur Abgabe in der Spalte der Aufgabe; die Bewertung geben Sie, und weder eine Bewertung noch die Kurssumme wird aus dem Ähnlichkeitswert berechnet.',
  'settings.column.assignment': 'Der Ähnlichkeitswert als Bewertung der Aufgabe',
  'settings.column.assignmentEffect':
    'Der Ähnlichkeitswert wird zur Bewertung: Eine eigenständige Arbeit erhält 0 von 100, Studierende sehen das, und es zählt in der Kurssumme.',
  'settings.column.similarityEffect':
    'Der Ähnlichkeitswert kommt in eine eigene Spalte, die in der Kurssumme zählt und Studierenden angezeigt wird, solange Sie sie im LMS nicht aus der Summe nehmen und verbergen.',
  'settings.column.similarity': 'Eine eigene Spalte „Ähnlichkeit“',
  'settings.column.lms.moodle.comment':
    'In Moodle ist der Kommentar das Feedback einer leeren Bewertung; eine Bewertung, die Sie in der Bewerterübersicht eintragen, überschreibt sie und behält Ihr eigenes Feedback.',
  'settings.column.lms.moodle.assignment':
    'In Moodle überschreibt eine Bewertung, die Sie in der Bewerterübersicht eintragen, den Ähnlichkeitswert und bleibt bestehen.',
  'settings.column.lms.canvas.comment':
    'In Canvas bleibt jede Arbeit in Ihrer Liste „Bewertung erforderlich“, bis Sie sie bewerten, und die Studierenden lesen den Kommentar, sobald Sie die Arbeit bewerten (oder ihre Bewertung veröffentlichen, wo die Aufgabe Bewertungen manuell veröffentlicht).',
  'settings.column.lms.canvas.assignment':
    'In Canvas sehen die Studierenden die Bewertung sofort, außer die Aufgabe veröffentlicht Bewertungen manuell; eine Bewertung, die Sie in Canvas geben, bleibt Ihre, und ein späterer Versuch ersetzt nur den Ähnlichkeitswert, den das Werkzeug gesendet hat.',
  'settings.column.lms.canvas.similarity':
    'In Canvas ist die Spalte eine neue Aufgabe „Similarity: {title}“, die in die Gesamtbewertung eingeht und ihre Bewertungen den Studierenden zeigt, außer Sie stellen in Canvas ein, dass sie nicht zählt und Bewertungen manuell veröffentlicht werden.',
  'settings.column.lms.brightspace.comment':
    'In Brightspace wird jede geprüfte Arbeit für Sie als „bereit zur Bewertung“ markiert.',
  'settings.column.lms.blackboard.assignment':
    'In Blackboard Ultra wird die Bewertung den Studierenden sofort veröffentlicht.',
  'settings.column.lms.blackboard.similarity':
    'In Blackboard Ultra werden die Bewertungen der Spalte den Studierenden sofort veröffentlicht.',
  'settings.column.preview.unchanged':
    'Dies ist die aktuelle Auswahl: Speichern sendet nichts weiter an die Bewertungsübersicht.',
  'settings.column.preview.nothingYet':
    'Noch ist keine Arbeit geprüft: Speichern dieser Auswahl sendet jetzt nichts; jede Arbeit geht so, sobald sie geprüft ist.',
  'settings.column.preview.comment': {
    one: 'Speichern dieser Auswahl sendet die {count} geprüfte Arbeit erneut, als Kommentar ohne Bewertung; ein Ähnlichkeitswert, den das Werkzeug als Bewertung gesendet hat, wird entfernt, wo das LMS ihn von Ihrer Bewertung unterscheiden lässt, und eine Bewertung von Ihnen bleibt.',
    other:
      'Speichern dieser Auswahl sendet die {count} geprüften Arbeiten erneut, jede als Kommentar ohne Bewertung; ein Ähnlichkeitswert, den das Werkzeug als Bewertung gesendet hat, wird entfernt, wo das LMS ihn von Ihrer Bewertung unterscheiden lässt, und eine Bewertung von Ihnen bleibt.',
  },
  'settings.column.preview.assignment': {
    one: 'Speichern dieser Auswahl sendet den Ähnlichkeitswert der {count} geprüften Arbeit als ihre Bewertung (von 100); eine Bewertung von Ihnen bleibt Ihre.',
    other:
      'Speichern dieser Auswahl sendet den Ähnlichkeitswert jeder der {count} geprüften Arbeiten als ihre Bewertung (von 100); eine Bewertung von Ihnen bleibt Ihre.',
  },
  'settings.column.preview.similarity': {
    one: 'Speichern dieser Auswahl sendet den Ähnlichkeitswert der {count} geprüften Arbeit in eine eigene Spalte; die Spalte der Aufgabe behält, was sie enthält.',
    other:
      'Speichern dieser Auswahl sendet den Ähnlichkeitswert jeder der {count} geprüften Arbeiten in eine eigene Spalte; die Spalte der Aufgabe behält, was sie enthält.',
  },
  'settings.column.preview.label': 'Wenn Sie diese Auswahl speichern:',
  'settings.column.unavailable':
    'Ihr LMS erlaubt dem Werkzeug nicht, für diese Aufgabe Spalten in der Bewertungsübersicht anzulegen.',
  'settings.bands': 'Farbstufen der Ähnlichkeit',
  'settings.bandsHelp':
    'Unterhalb der gelben Stufe ist ein Wert grün (gering). Standard: gelb ab 25 %, orange ab 50 %, rot ab 75 %.',
  'settings.band.yellow': 'Gelb (mittel) ab',
  'settings.band.orange': 'Orange (hoch) ab',
  'settings.band.red': 'Rot (sehr hoch) ab',
  'settings.advanced': 'Erweitert: womit der Prüfdienst vergleicht',
  'settings.advancedHelp':
    'Die meisten Aufgaben behalten die üblichen Einstellungen. Ändern Sie sie, wenn die Prüfung mehr auslassen oder Arbeiten mit weniger Quellen vergleichen soll.',
  'settings.save': 'Einstellungen speichern',
  'settings.error.unreadable': 'Das Formular konnte nicht gelesen werden: Prüfen Sie das Feld „{field}“.',
  'settings.error.dueAt':
    'Geben Sie den Abgabetermin als Datum und Uhrzeit ein (zum Beispiel 2026-12-01 17:00), oder lassen Sie ihn leer für keinen Abgabetermin.',
  'settings.error.excludedPhrases':
    'Bis zu {count} ausgelassene Wendungen, eine pro Zeile, jede höchstens 500 Zeichen lang.',
  'settings.error.allowedFileTypes': 'Erlauben Sie mindestens einen Dateityp.',
  'settings.error.maxFileMb': 'Die größte Datei muss zwischen 1 und {max} MB liegen (mehr nimmt der Dienst nicht an).',
  'settings.error.maxAttempts': 'Die Zahl der Versuche muss zwischen 1 und 50 liegen.',
  'settings.error.excludeThresholdWords': 'Die Wortgrenze muss eine ganze Zahl von 0 bis 1000 sein.',
  'settings.error.instructions': 'Hinweise dürfen höchstens {max} Zeichen lang sein.',
  'settings.error.similarityBands':
    'Jede Farbstufe beginnt zwischen 1 und 100 %, oberhalb der Stufe davor (gelb, dann orange, dann rot).',
  'settings.error.language': 'Nennen Sie die Sprache der Arbeiten (höchstens 60 Zeichen).',
  'settings.error.documentType': 'Wählen Sie eine Dokumentart: {types}.',
  'settings.error.gradeColumn':
    'Wählen Sie, was die Bewertungsübersicht erhält: einen Kommentar neben der Abgabe, den Ähnlichkeitswert als Bewertung oder eine eigene Spalte.',
  'settings.error.field': 'Prüfen Sie das Feld „{field}“: {problem}',

  'check.leftOut': 'Was die Prüfung auslässt',
  'check.references': 'Literaturverzeichnis und Quellenangaben',
  'check.quotes': 'Zitierter Text',
  'check.smallSources': 'Kleine Quellen',
  'check.threshold': 'Klein heißt weniger Wörter als',
  'check.thresholdHelp':
    'Eine Quelle, die in weniger Wörtern übereinstimmt, zählt nicht, wenn kleine Quellen ausgelassen werden.',
  'check.phrases': 'Zu ignorierende Wendungen',
  'check.phrasesHelp': 'Eine pro Zeile, bis zu 15: eine Vorlage oder eine Frage, die jede Arbeit wiederholt.',
  'check.compareWith': 'Vergleichen mit',
  'check.studentPapers': 'Arbeiten von Studierenden',
  'check.publications': 'Veröffentlichungen',
  'check.internet': 'Dem Internet',
  'check.repository': 'Dem Repositorium der Einrichtung',
  'check.grammar': 'Auch die Grammatik prüfen',
  'check.papers': 'Arbeiten',
  'check.language': 'Sprache der Arbeiten',
  'check.documentType': 'Dokumentart',
  'documentType.Assignment': 'Hausarbeit',
  'documentType.Article': 'Artikel',
  'documentType.Thesis': 'Abschlussarbeit',

  'history.title': 'Verlauf: {file}',
  'history.heading': 'Verlauf von {file}',
  'history.attempt': 'Versuch {attempt}, eingegangen',
  'history.region': 'Der Verlauf des Versuchs',
  'history.col.time': 'Zeit',
  'history.col.from': 'Von',
  'history.col.to': 'Nach',
  'history.col.why': 'Grund',
  'history.col.jobAttempt': 'Durchlauf',

  'review.title': 'Abgaben von {name}',
  'review.heading': 'Abgaben von {name}',
  'review.assignment': 'Aufgabe: {title}',
  'review.none': '{name} hat zu dieser Aufgabe noch nichts abgegeben.',
  'review.region': 'Die Abgaben der Person',
  'review.col.attempt': 'Versuch',
  'review.col.submitted': 'Abgegeben',
  'review.col.file': 'Datei',
  'review.col.status': 'Status',
  'review.col.similarity': 'Ähnlichkeit',
  'review.col.ai': 'KI',
  'review.col.reports': 'Berichte',
  'review.noSuchStudent': 'Diese Person gibt es in Ihrem Kurs nicht.',
  'reviewLaunch.notYoursTitle': 'Nicht Ihre Abgabe',
  'reviewLaunch.notYours':
    'Sie können nur Ihre eigenen Abgaben öffnen. Diese Ansicht gilt der Abgabe einer anderen Person, daher zeigt das Werkzeug sie nicht.',
  'reviewLaunch.noCourse':
    'Das LMS hat nicht gesagt, zu welchem Kurs diese Ansicht gehört. Öffnen Sie sie erneut aus der Bewertungsübersicht Ihres Kurses.',
  'reviewLaunch.noAssignmentTitle': 'Noch nichts anzusehen',
  'reviewLaunch.noAssignment':
    'Noch niemand hat diese Aufgabe im Werkzeug geöffnet, daher gibt es keine Abgaben anzusehen.',

  'report.noGrammar':
    'Für diese Arbeit gibt es keinen Grammatikbericht (die Grammatikprüfung war aus, oder er ist noch nicht fertig).',
  'report.serviceFailed': 'Der Prüfdienst hat den Bericht nicht gesendet: {reason}',
  'report.roleNoAccess':
    'Berichte sind für die Lehrenden des Kurses und die Person, die die Datei abgegeben hat. Ihre Rolle in diesem Kurs gibt Ihnen keinen Zugang.',
  'report.noCourse':
    'Das LMS hat nicht gesagt, zu welchem Kurs dieser Bericht gehört, daher kann das Werkzeug ihn nicht öffnen. Öffnen Sie ihn aus der Aufgabe in Ihrem Kurs.',
  'report.unknownFile':
    'Das Werkzeug kennt diese Datei für diese Aufgabe nicht (vielleicht wurde sie abgegeben, bevor das Werkzeug angebunden war). Bitten Sie Ihre Lehrperson, sie erneut prüfen zu lassen.',
  'report.othersFile':
    'Dieser Bericht gehört zur Datei einer anderen Person. Sie können nur die Berichte Ihrer eigenen Dateien öffnen.',
  'report.paperRemoved':
    'Die geprüfte Arbeit zu dieser Datei wurde aus dem Werkzeug entfernt. Bitten Sie Ihre Lehrperson, sie erneut prüfen zu lassen.',

  'deepLink.title': 'Eine Aufgabe mit Ähnlichkeitsprüfung hinzufügen',
  'deepLink.intro':
    'Studierende reichen ihre Arbeit über diese Aufgabe ein; jede Arbeit wird auf Ähnlichkeit und KI-geschriebenen Text geprüft, und der Ähnlichkeitswert geht in die Bewertungsübersicht.',
  'deepLink.course': 'Kurs:',
  'deepLink.titleLabel': 'Titel',
  'deepLink.add': 'Aufgabe hinzufügen',
  'deepLink.defaultTitle': 'Ähnlichkeitsprüfung',
  'deepLink.instructorsOnly': 'Nur eine Lehrperson, die das Werkzeug aus dem LMS hinzufügt, kann das tun.',
  'deepLink.titleMissing': 'Geben Sie der Aufgabe einen Titel.',
  'deepLink.titleTooLong': 'Der Titel ist zu lang (höchstens 200 Zeichen).',
  'deepLink.notHereTitle': 'Hier nicht möglich',
  'deepLink.notHere':
    'Diese Stelle Ihres LMS nimmt keinen Aufgabenlink an. Fügen Sie das Werkzeug stattdessen als Aufgabe (eine Aktivität „Externes Tool“) hinzu.',
  'deepLink.added': '„{title}“ hinzugefügt.',
  'deepLink.returning': 'Zurück zu Ihrem Kurs',
  'deepLink.created': '„{title}“ wurde angelegt. Ihr Browser kehrt jetzt zum LMS zurück.',
  'deepLink.continue': 'Weiter zum LMS',

  'attach.title': 'Die Abgaben dieser Aufgabe prüfen',
  'attach.introNamed':
    'Studierende geben in „{activity}“ wie gewohnt ab. Jede Datei und jeder Texteintrag wird auf Ähnlichkeit und KI-geschriebenen Text geprüft, und der Bericht erscheint neben der Abgabe in Ihrem LMS. Die Einstellungen unten sind die üblichen; ändern Sie sie jetzt oder später in den Einstellungen der Aufgabe in Ihrem LMS.',
  'attach.intro':
    'Studierende geben in dieser Aufgabe wie gewohnt ab. Jede Datei und jeder Texteintrag wird auf Ähnlichkeit und KI-geschriebenen Text geprüft, und der Bericht erscheint neben der Abgabe in Ihrem LMS. Die Einstellungen unten sind die üblichen; ändern Sie sie jetzt oder später in den Einstellungen der Aufgabe in Ihrem LMS.',
  'attach.titleLabel': 'Titel der Prüfung',
  'attach.whoSees': 'Wer den Bericht im LMS sieht',
  'attach.whoSees.students': 'Auch Studierende, sobald ihre Abgabe geprüft ist',
  'attach.showAi': 'Studierenden auch den KI-Bericht zeigen',
  'attach.submit': 'Prüfung anbinden',
  'attach.titleMissing': 'Geben Sie der Prüfung einen Titel.',
  'attach.notHereTitle': 'Hier nicht anzubinden',
  'attach.notHere':
    'Diese Stelle Ihres LMS nimmt keinen Dokumentprozessor an. Binden Sie das Werkzeug stattdessen in den Einstellungen der Aufgabe unter Dokumentverarbeitung an.',
  'attach.cannotTitle': 'Kann nicht angebunden werden',
  'attach.noNoticeService':
    'Ihr LMS hat nicht gesagt, wo sein Benachrichtigungsdienst ist, daher erfährt das Werkzeug nichts von Abgaben. Wenden Sie sich an die Administration Ihres LMS.',
  'attach.attached': '„{title}“ angebunden.',

  'apLaunch.couldNotOpen': 'Das Werkzeug konnte nicht geöffnet werden',
  'apLaunch.missing':
    'Ihr LMS hat einen Start ohne Angaben gesendet, die das Werkzeug braucht. Wenden Sie sich an die Administration Ihres LMS.',
  'apLaunch.reportUnavailable': 'Bericht nicht verfügbar',
  'apLaunch.checkingTitle': 'Wird geprüft',
  'apLaunch.checking': 'Diese Datei wird geprüft: {state}. Ihr Bericht erscheint hier, sobald die Prüfung fertig ist.',
  'apLaunch.failedTitle': 'Die Datei konnte nicht geprüft werden',
  'apLaunch.notForRoleTitle': 'Für Ihre Rolle nicht verfügbar',
  'apLaunch.settingsInstructorsOnly': 'Nur Lehrende des Kurses können die Prüfeinstellungen ändern.',
  'apLaunch.noCourse':
    'Das LMS hat nicht gesagt, zu welchem Kurs diese Aufgabe gehört. Öffnen Sie die Einstellungen aus der Aufgabe in Ihrem Kurs.',
  'apLaunch.notAttachedTitle': 'Nicht angebunden',
  'apLaunch.notAttached':
    'Das Werkzeug ist an diese Aufgabe nicht angebunden (sein Prozessor wurde entfernt oder in einem anderen Kurs angebunden). Fügen Sie es im Editor der Aufgabe erneut hinzu.',
  'apLaunch.noTerms':
    'Dieses Werkzeug hat keine Nutzungsbedingungen zu akzeptieren. Ihr LMS kann aufhören, danach zu fragen (seine EULA-Einstellung für das Werkzeug).',
  'apLaunch.notAvailableTitle': 'Nicht verfügbar',
  'apLaunch.termsFromLms':
    'Nutzungsbedingungen werden auf der Seite akzeptiert, die Ihr LMS dafür öffnet. Öffnen Sie sie erneut aus Ihrem LMS.',
  'apLaunch.lmsGone':
    'Ihr LMS ist beim Werkzeug nicht mehr registriert. Wenden Sie sich an die Administration Ihres LMS.',

  'eula.title': 'Nutzungsbedingungen',
  'eula.accepted':
    'Sie haben die Bedingungen akzeptiert. Ihr LMS schließt diese Seite jetzt, und Ihre abgegebenen Dateien werden ab jetzt geprüft.',
  'eula.intro':
    'Bevor das Werkzeug Ihre abgegebenen Dateien auf Ähnlichkeit und KI-Inhalte prüft, lesen und akzeptieren Sie bitte seine Bedingungen.',
  'eula.termsAt': 'Die Bedingungen stehen auf dieser Seite:',
  'eula.accept': 'Akzeptieren',

  'admin.title': 'Administration',
  'admin.login.intro':
    'Öffnen Sie diese Seite aus Ihrem LMS als Plattform-Administrator, oder geben Sie das Startschlüssel-Token des Werkzeugs ein (die Einstellung ADMIN_TOKEN).',
  'admin.login.token': 'Startschlüssel-Token',
  'admin.login.tooMany':
    'Von Ihrer Adresse kamen zu viele falsche Tokens. Warten Sie {minutes} Minuten und versuchen Sie es dann noch einmal.',
  'admin.login.continue': 'Weiter',
  'admin.addresses': 'Adressen',
  'admin.platforms': 'Registrierte Plattformen',
  'admin.switchOff': 'Ausschalten',
  'admin.switchOn': 'Einschalten',
  'admin.resendScores': 'Alle Werte erneut senden',
  'admin.remove': 'Entfernen',
  'admin.use': 'Verwenden',
  'admin.save': 'Speichern',
  'admin.accounts': 'Dienstkonten',
  'admin.testLogin': 'Anmeldung testen',
  'admin.saveAccount': 'Konto speichern',
  'admin.queues': 'Warteschlangen',
  'admin.failedJobs': 'Fehlgeschlagene Aufträge',
  'admin.retry': 'Erneut versuchen',

  'registration.failedTitle': 'Registrierung fehlgeschlagen',
  'registration.failedHeading': 'Das Werkzeug ist nicht registriert',
  'registration.close': 'Schließen',
  'registration.doneTitle': 'Registriert',
  'registration.doneHeading': 'Das Werkzeug ist registriert',
  'registration.next': 'Was als Nächstes zu tun ist',
};
