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
 * English strings of plagiarism_olti.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

$string['disclosuredefault'] = 'What you submit here is checked for similarity to other sources: a copy of your files and online text is sent to the originality check, which keeps it to compare later papers with. Your teacher sees the result.';
$string['formenable'] = 'Check submissions for originality';
$string['formenable_help'] = 'When on, each submission is copied and sent to the originality check when it is submitted (the final "Submit" where students must press it, each save otherwise). Its similarity then shows beside each file and online text in the grader. The check\'s settings are the tool\'s defaults.';
$string['formheader'] = 'Originality check';
$string['formsettings'] = 'Check settings';
$string['formsettingslink'] = 'Open the check\'s settings (new window)';
$string['noticenotsent'] = 'The submission could not be announced to the originality check at {$a}; Moodle will try again.';
$string['noticerefused'] = 'The originality check at {$a->url} refused the submission\'s notice ({$a->status}); Moodle will try again.';
$string['notoolconfigured'] = 'No LTI tool is chosen for the originality check. A site administrator chooses one under Site administration > Plugins > Plagiarism > Originality check.';
$string['olti:enable'] = 'Switch the originality check on for an assignment';
$string['olti:viewreport'] = 'See every student\'s originality result and report';
$string['onlinetext'] = 'Online text';
$string['pluginname'] = 'Originality check';
$string['privacy:metadata:core_files'] = 'Copies of the submitted files and online text, as they were submitted, kept for the originality check to fetch.';
$string['privacy:metadata:plagiarism_olti_asset'] = 'Each file and online text sent to the originality check.';
$string['privacy:metadata:plagiarism_olti_asset:filename'] = 'The file\'s name.';
$string['privacy:metadata:plagiarism_olti_asset:timecreated'] = 'When it was submitted.';
$string['privacy:metadata:plagiarism_olti_asset:userid'] = 'The student whose paper it is.';
$string['privacy:metadata:plagiarism_olti_report'] = 'The originality check\'s result for each file and online text.';
$string['privacy:metadata:plagiarism_olti_report:commenttext'] = 'What the check said of the paper.';
$string['privacy:metadata:plagiarism_olti_report:result'] = 'The similarity the check found.';
$string['privacy:metadata:tool'] = 'The originality check (an LTI tool) receives each submitted file and online text with the student\'s id, and the name and e-mail address unless the assignment hides students\' identities.';
$string['privacy:metadata:tool:content'] = 'The submitted files and online text.';
$string['privacy:metadata:tool:email'] = 'The student\'s e-mail address.';
$string['privacy:metadata:tool:fullname'] = 'The student\'s name.';
$string['privacy:metadata:tool:userid'] = 'The student\'s id in Moodle.';
$string['progress_failed'] = 'Could not be checked';
$string['progress_notprocessed'] = 'Not checked';
$string['progress_notready'] = 'Not ready';
$string['progress_pendingmanual'] = 'Waiting for a review';
$string['progress_processed'] = 'Checked';
$string['progress_processing'] = 'Being checked';
$string['reportgone'] = 'This report no longer exists: the submission was removed, or it was never checked.';
$string['reporttype'] = 'Report ({$a})';
$string['settingdefaulton'] = 'On in new assignments';
$string['settingdisclosure'] = 'What students read on the submission page';
$string['settingdisclosure_help'] = 'Shown to students above the submission form of every assignment with the check on. Leave empty for the standard sentence.';
$string['settingenabled'] = 'Use the originality check';
$string['settingnoticeurl'] = 'The tool\'s notice address';
$string['settingnoticeurl_help'] = 'Where Moodle announces each submission. Leave empty to use /asset-processor/notices on the tool\'s own address.';
$string['settingresendafter'] = 'Announce again after (hours)';
$string['settingresendafter_help'] = 'A submission the tool has not reported on this many hours after it was announced is announced again (the tool checks each paper once).';
$string['settingresendafterrange'] = 'At least one hour.';
$string['settingsintro'] = 'The originality check receives the files and online text of Moodle\'s assignments as an LTI Asset Processor and shows its results beside each paper. Choose the LTI 1.3 tool it runs as (its tool type must have "Originality check services" on, from the LTI service plugin ltiservice_olti).';
$string['settingtypeid'] = 'LTI tool';
$string['settingtypeid_help'] = 'The LTI 1.3 tool type of the originality check. Only this tool may fetch the submitted files and post reports.';
$string['settingtypeidrequired'] = 'Choose the LTI tool the check uses.';
$string['statefailed'] = 'Not yet sent; Moodle will try again';
$string['statepending'] = 'Waiting to be sent';
$string['statesent'] = 'Sent for checking';
$string['taskresend'] = 'Announce again the papers the originality check has not reported on';
$string['viewreport'] = 'View report';
