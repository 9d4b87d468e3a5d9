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
 * The authentication response of the report review launch: the signed LtiReportReviewRequest.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

// Follows mod/lti/auth.php (Moodle 4.5): the same checks of the OpenID Connect request, the same repost of a
// cross-site POST that arrived without the session's cookie, then the message of the launch that launch.php began.
require_once(__DIR__ . '/../../config.php');

use plagiarism_olti\local\config;
use plagiarism_olti\local\notice;
use plagiarism_olti\local\review;

if (!isloggedin() && empty($_POST['repost'])) {
    header_remove('Set-Cookie');
    $PAGE->set_pagelayout('popup');
    $PAGE->set_context(context_system::instance());
    $output = $PAGE->get_renderer('mod_lti');
    $page = new \mod_lti\output\repost_crosssite_page($_SERVER['REQUEST_URI'], $_POST);
    echo $output->header();
    echo $output->render($page);
    echo $output->footer();
    return;
}

$scope = optional_param('scope', '', PARAM_TEXT);
$responsetype = optional_param('response_type', '', PARAM_TEXT);
$clientid = optional_param('client_id', '', PARAM_TEXT);
$redirecturi = optional_param('redirect_uri', '', PARAM_URL);
$loginhint = optional_param('login_hint', '', PARAM_TEXT);
$hint = json_decode(optional_param('lti_message_hint', '', PARAM_RAW));
$state = optional_param('state', '', PARAM_RAW);
$responsemode = optional_param('response_mode', '', PARAM_TEXT);
$nonce = optional_param('nonce', '', PARAM_RAW);
$prompt = optional_param('prompt', '', PARAM_TEXT);

$tool = config::tool();
if (!$tool) {
    throw new moodle_exception('notoolconfigured', 'plagiarism_olti');
}
// A redirect address the tool type does not list is never posted to.
$uris = array_map('trim', explode("\n", (string) $tool->lti_redirectionuris));
if (!in_array($redirecturi, $uris, true)) {
    throw new moodle_exception('invalidrequest', 'error');
}

$error = '';
$launchid = is_object($hint) && isset($hint->launchid) && is_string($hint->launchid) ? $hint->launchid : '';
$launch = null;
if ($scope === '' || $responsetype === '' || $clientid === '' || $loginhint === '' || $nonce === '') {
    $error = 'invalid_request';
} else if ($scope !== 'openid') {
    $error = 'invalid_scope';
} else if ($responsetype !== 'id_token') {
    $error = 'unsupported_response_type';
} else if ($clientid !== $tool->lti_clientid) {
    $error = 'unauthorized_client';
} else if ($loginhint !== (string) $USER->id) {
    $error = 'access_denied';
} else if ($responsemode !== 'form_post' || ($prompt !== '' && $prompt !== 'none')) {
    $error = 'invalid_request';
} else if (strpos($launchid, 'plagiarism_olti_') !== 0 || empty($SESSION->$launchid)) {
    $error = 'invalid_request';
} else {
    $launch = json_decode($SESSION->$launchid);
    unset($SESSION->$launchid);
    if (!$launch || time() - (int) $launch->time > 600) {
        $error = 'invalid_request';
    }
}

$fields = [];
if ($error === '') {
    if (!empty($launch->settings)) {
        [$course, $cm] = review::settings_permitted((int) $launch->settings);
        $fields['id_token'] = notice::sign(review::settings_claims($tool, $cm, $course, $nonce));
    } else {
        [$asset, $report, $cm, $course, $grader] = review::permitted((string) $launch->asset, (string) $launch->type);
        $fields['id_token'] = notice::sign(review::claims($tool, $asset, $report, $cm, $course, $grader, $nonce));
    }
} else {
    $fields['error'] = $error;
}
if ($state !== '') {
    $fields['state'] = $state;
}
echo review::autopost($redirecturi, $fields);
