<?php
// This file is part of Moodle - https://moodle.org/
//
// Moodle is free software: you can redistribute it and/or modify
// it under the terms of the GNU General Public License as published by
// the Free Software Foundation, either version 3 of the License, or
// (at your option) any later version.
//
// Moodle is distributed in the hope that it will be useful,
// but WITHOUT ANY WARRANTY; without even the implied warranty of
// MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
// GNU General Public License for more details.
//
// You should have received a copy of the GNU General Public License
// along with Moodle.  If not, see <https://www.gnu.org/licenses/>.
/**
 * German strings of plagiarism_olti.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

$string['disclosuredefault'] = 'Was Sie hier einreichen, wird auf Ähnlichkeit mit anderen Quellen geprüft: Eine Kopie Ihrer Dateien und Ihres Online-Texts geht an die Originalitätsprüfung, die sie aufbewahrt, um spätere Arbeiten damit zu vergleichen. Ihre Lehrkraft sieht das Ergebnis.';
$string['formenable'] = 'Abgaben auf Originalität prüfen';
$string['formenable_help'] = 'Ist dies an, wird jede Abgabe beim Einreichen kopiert und an die Originalitätsprüfung geschickt (beim endgültigen „Abgeben“, wo Studierende es drücken müssen, sonst bei jedem Speichern). Die Ähnlichkeit steht dann in der Bewertungsansicht neben jeder Datei und jedem Online-Text. Die Prüfeinstellungen sind die Voreinstellungen des Tools.';
$string['formheader'] = 'Originalitätsprüfung';
$string['formsettings'] = 'Prüfeinstellungen';
$string['formsettingslink'] = 'Die Einstellungen der Prüfung öffnen (neues Fenster)';
$string['noticenotsent'] = 'Die Abgabe konnte der Originalitätsprüfung unter {$a} nicht gemeldet werden; Moodle versucht es erneut.';
$string['noticerefused'] = 'Die Originalitätsprüfung unter {$a->url} hat die Meldung der Abgabe abgelehnt ({$a->status}); Moodle versucht es erneut.';
$string['notoolconfigured'] = 'Für die Originalitätsprüfung ist kein LTI-Tool gewählt. Eine Administratorin oder ein Administrator wählt es unter Website-Administration > Plugins > Plagiatsprüfung > Originalitätsprüfung.';
$string['olti:enable'] = 'Die Originalitätsprüfung für eine Aufgabe einschalten';
$string['olti:viewreport'] = 'Das Ergebnis und den Bericht der Originalitätsprüfung aller Studierenden sehen';
$string['onlinetext'] = 'Online-Text';
$string['pluginname'] = 'Originalitätsprüfung';
$string['privacy:metadata:core_files'] = 'Kopien der eingereichten Dateien und Online-Texte, so wie sie eingereicht wurden, damit die Originalitätsprüfung sie abholen kann.';
$string['privacy:metadata:plagiarism_olti_asset'] = 'Jede Datei und jeder Online-Text, die an die Originalitätsprüfung gingen.';
$string['privacy:metadata:plagiarism_olti_asset:filename'] = 'Der Name der Datei.';
$string['privacy:metadata:plagiarism_olti_asset:timecreated'] = 'Wann sie eingereicht wurde.';
$string['privacy:metadata:plagiarism_olti_asset:userid'] = 'Die oder der Studierende, deren Arbeit es ist.';
$string['privacy:metadata:plagiarism_olti_report'] = 'Das Ergebnis der Originalitätsprüfung für jede Datei und jeden Online-Text.';
$string['privacy:metadata:plagiarism_olti_report:commenttext'] = 'Was die Prüfung zur Arbeit sagte.';
$string['privacy:metadata:plagiarism_olti_report:result'] = 'Die gefundene Ähnlichkeit.';
$string['privacy:metadata:tool'] = 'Die Originalitätsprüfung (ein LTI-Tool) erhält jede eingereichte Datei und jeden Online-Text mit der ID der oder des Studierenden, dazu Name und E-Mail-Adresse, außer die Aufgabe verbirgt die Identität der Studierenden.';
$string['privacy:metadata:tool:content'] = 'Die eingereichten Dateien und Online-Texte.';
$string['privacy:metadata:tool:email'] = 'Die E-Mail-Adresse der oder des Studierenden.';
$string['privacy:metadata:tool:fullname'] = 'Der Name der oder des Studierenden.';
$string['privacy:metadata:tool:userid'] = 'Die ID der oder des Studierenden in Moodle.';
$string['progress_failed'] = 'Konnte nicht geprüft werden';
$string['progress_notprocessed'] = 'Nicht geprüft';
$string['progress_notready'] = 'Noch nicht bereit';
$string['progress_pendingmanual'] = 'Wartet auf eine Durchsicht';
$string['progress_processed'] = 'Geprüft';
$string['progress_processing'] = 'Wird geprüft';
$string['reportgone'] = 'Diesen Bericht gibt es nicht mehr: Die Abgabe wurde entfernt oder nie geprüft.';
$string['reporttype'] = 'Bericht ({$a})';
$string['settingdefaulton'] = 'In neuen Aufgaben an';
$string['settingdisclosure'] = 'Was Studierende auf der Abgabeseite lesen';
$string['settingdisclosure_help'] = 'Wird Studierenden über dem Abgabeformular jeder Aufgabe mit eingeschalteter Prüfung gezeigt. Leer lassen für den Standardsatz.';
$string['settingenabled'] = 'Die Originalitätsprüfung verwenden';
$string['settingnoticeurl'] = 'Meldeadresse des Tools';
$string['settingnoticeurl_help'] = 'Wohin Moodle jede Abgabe meldet. Leer lassen, um /asset-processor/notices auf der Adresse des Tools zu verwenden.';
$string['settingresendafter'] = 'Erneut melden nach (Stunden)';
$string['settingresendafter_help'] = 'Eine Abgabe, zu der das Tool so viele Stunden nach der Meldung keinen Bericht geschickt hat, wird erneut gemeldet (das Tool prüft jede Arbeit nur einmal).';
$string['settingresendafterrange'] = 'Mindestens eine Stunde.';
$string['settingsintro'] = 'Die Originalitätsprüfung erhält die Dateien und Online-Texte der Moodle-Aufgaben als LTI Asset Processor und zeigt ihre Ergebnisse neben jeder Arbeit. Wählen Sie das LTI-1.3-Tool, als das sie läuft (beim Tooltyp müssen die „Originality check services“ des LTI-Dienst-Plugins ltiservice_olti an sein).';
$string['settingtypeid'] = 'LTI-Tool';
$string['settingtypeid_help'] = 'Der LTI-1.3-Tooltyp der Originalitätsprüfung. Nur dieses Tool darf die eingereichten Dateien abholen und Berichte schicken.';
$string['settingtypeidrequired'] = 'Wählen Sie das LTI-Tool der Prüfung.';
$string['statefailed'] = 'Noch nicht gesendet; Moodle versucht es erneut';
$string['statepending'] = 'Wartet auf das Senden';
$string['statesent'] = 'Zur Prüfung gesendet';
$string['taskresend'] = 'Arbeiten erneut melden, zu denen die Originalitätsprüfung keinen Bericht geschickt hat';
$string['viewreport'] = 'Bericht ansehen';
