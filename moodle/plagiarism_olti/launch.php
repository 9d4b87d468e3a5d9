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
 * View report, or the check's settings: starts the launch through the tool's OIDC login.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

require_once(__DIR__ . '/../../config.php');

use plagiarism_olti\local\config;
use plagiarism_olti\local\review;

// Either a report (asset and type: "View report"), or an assignment's check settings (settings: its course module).
$settings = optional_param('settings', 0, PARAM_INT);
if ($settings) {
    [$course, $cm] = review::settings_permitted($settings);
    $launch = ['settings' => (int) $cm->id];
    $kind = 'settings';
    $params = ['settings' => $cm->id];
} else {
    $uuid = required_param('asset', PARAM_ALPHANUMEXT);
    $type = required_param('type', PARAM_ALPHANUMEXT);
    [$asset, $report, $cm, $course, $grader] = review::permitted($uuid, $type);
    $launch = ['asset' => $uuid, 'type' => $type];
    $kind = 'reportreview';
    $params = ['asset' => $uuid, 'type' => $type];
}
$tool = config::tool();
if (!$tool) {
    throw new moodle_exception('notoolconfigured', 'plagiarism_olti');
}
$PAGE->set_url('/plagiarism/olti/launch.php', $params);
$PAGE->set_context(context_module::instance($cm->id));
$PAGE->set_pagelayout('embedded');

// What auth.php launches once the tool's login comes back, kept in this user's session only.
$launchid = 'plagiarism_olti_' . random_string(20);
$SESSION->$launchid = json_encode($launch + ['time' => time()]);
$hint = json_encode(['launchid' => $launchid, 'olti' => $kind]);
\core\session\manager::write_close();

echo review::autopost(trim($tool->lti_initiatelogin), [
    'iss' => $CFG->wwwroot,
    'target_link_uri' => trim($tool->lti_toolurl),
    'login_hint' => (string) $USER->id,
    'lti_message_hint' => $hint,
    'client_id' => $tool->lti_clientid,
    'lti_deployment_id' => (string) $tool->typeid,
]);
