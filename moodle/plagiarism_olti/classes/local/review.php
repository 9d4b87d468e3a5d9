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
 * Where the report-review launch is built and checked: who may open which report.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\local;

use plagiarism_olti\local\notice;

/**
 * The report review launch (LtiReportReviewRequest, 1EdTech Asset Processor 1.0): "View report" beside a paper
 * opens the tool's report through the tool's OIDC login, as Canvas's does. mod/lti/auth.php launches only mod_lti
 * activities, so the plugin answers the login's authentication request itself (plagiarism/olti/auth.php).
 */
class review {
    /** @var string The message type. */
    const MESSAGE = 'LtiReportReviewRequest';
    /** @var string The settings launch's message type. */
    const SETTINGS_MESSAGE = 'LtiAssetProcessorSettingsRequest';
    /** @var string The instructor's role. */
    const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
    /** @var string Where the tool sends the authentication request of a report review. */
    const AUTH_PATH = '/plagiarism/olti/auth.php';

    /**
     * The asset and report a user asks for, when the user may open it; throws otherwise.
     *
     * @param string $uuid the asset's id
     * @param string $type the report type
     * @return array [$asset, $report, $cm, $course, bool $grader]
     */
    public static function permitted(string $uuid, string $type): array {
        global $DB, $USER;
        $asset = $DB->get_record('plagiarism_olti_asset', ['uuid' => $uuid]);
        if (!$asset) {
            throw new \moodle_exception('reportgone', 'plagiarism_olti');
        }
        [$course, $cm] = get_course_and_cm_from_cmid($asset->cmid, 'assign');
        require_login($course, false, $cm);
        $context = \context_module::instance($cm->id);
        $report = $DB->get_record('plagiarism_olti_report', ['assetid' => $asset->id, 'type' => $type]);
        if (!$report) {
            throw new \moodle_exception('reportgone', 'plagiarism_olti');
        }
        $grader = has_capability('plagiarism/olti:viewreport', $context);
        if (!$grader) {
            $own = (int) $asset->userid === (int) $USER->id
                || ($asset->groupid && groups_is_member((int) $asset->groupid, (int) $USER->id));
            if (!$own || !$report->visibletoowner) {
                throw new \required_capability_exception($context, 'plagiarism/olti:viewreport', 'nopermissions', '');
            }
        }
        return [$asset, $report, $cm, $course, $grader];
    }

    /**
     * The assignment whose check settings a user asks for, when the user may switch the check on; throws otherwise.
     *
     * @param int $cmid
     * @return array [$course, $cm]
     */
    public static function settings_permitted(int $cmid): array {
        [$course, $cm] = get_course_and_cm_from_cmid($cmid, 'assign');
        require_login($course, false, $cm);
        require_capability('plagiarism/olti:enable', \context_module::instance($cm->id));
        return [$course, $cm];
    }

    /**
     * The id_token's claims of a report review launch.
     *
     * @param \stdClass $tool
     * @param \stdClass $asset
     * @param \stdClass $report
     * @param \cm_info|\stdClass $cm
     * @param \stdClass $course
     * @param bool $grader
     * @param string $nonce the tool's nonce
     * @return array
     */
    public static function claims(\stdClass $tool, \stdClass $asset, \stdClass $report, \cm_info|\stdClass $cm,
            \stdClass $course, bool $grader, string $nonce): array {
        $lti = notice::LTI;
        $role = $grader ? self::INSTRUCTOR : notice::LEARNER;
        return self::base($tool, $course, $cm, $role, self::MESSAGE, $nonce) + [
            $lti . 'for_user' => ['user_id' => (string) $asset->userid],
            $lti . 'submission' => ['id' => notice::submission_id($asset)],
            $lti . 'asset' => ['id' => $asset->uuid],
            $lti . 'assetreport_type' => $report->type,
        ];
    }

    /**
     * The id_token's claims of a settings launch from the assignment's form (LtiAssetProcessorSettingsRequest):
     * the tool opens the assignment's check settings, and attaches itself to the assignment if nobody submitted yet.
     *
     * @param \stdClass $tool
     * @param \cm_info|\stdClass $cm
     * @param \stdClass $course
     * @param string $nonce
     * @return array
     */
    public static function settings_claims(\stdClass $tool, \cm_info|\stdClass $cm, \stdClass $course,
            string $nonce): array {
        return self::base($tool, $course, $cm, self::INSTRUCTOR, self::SETTINGS_MESSAGE, $nonce);
    }

    /**
     * What every launch of the plugin carries.
     *
     * @param \stdClass $tool
     * @param \stdClass $course
     * @param \cm_info|\stdClass $cm
     * @param string $role
     * @param string $message
     * @param string $nonce
     * @return array
     */
    private static function base(\stdClass $tool, \stdClass $course, \cm_info|\stdClass $cm, string $role,
            string $message, string $nonce): array {
        global $CFG, $USER;
        $lti = notice::LTI;
        $now = time();
        $claims = [
            'iss' => $CFG->wwwroot,
            'aud' => $tool->lti_clientid,
            'sub' => (string) $USER->id,
            'nonce' => $nonce,
            'iat' => $now,
            'exp' => $now + 60,
            $lti . 'message_type' => $message,
            $lti . 'version' => '1.3.0',
            $lti . 'deployment_id' => (string) $tool->typeid,
            $lti . 'target_link_uri' => trim($tool->lti_toolurl),
            $lti . 'roles' => [$role],
            $lti . 'context' => [
                'id' => (string) $course->id,
                'label' => $course->shortname,
                'title' => format_string($course->fullname),
                'type' => ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'],
            ],
            $lti . 'activity' => ['id' => (string) $cm->id, 'title' => format_string($cm->name)],
            $lti . 'launch_presentation' => [
                'document_target' => 'window',
                'locale' => current_language(),
                'return_url' => (new \moodle_url('/mod/assign/view.php', ['id' => $cm->id]))->out(false),
            ],
            $lti . 'tool_platform' => [
                'product_family_code' => 'moodle',
                'version' => (string) $CFG->version,
                'guid' => parse_url($CFG->wwwroot, PHP_URL_HOST),
                'url' => $CFG->wwwroot,
            ],
        ];
        // The viewer's name and e-mail go as the tool type's privacy settings say (mod_lti: 1 = always).
        if ((int) ($tool->lti_sendname ?? 0) === 1) {
            $claims['name'] = fullname($USER);
            $claims['given_name'] = $USER->firstname;
            $claims['family_name'] = $USER->lastname;
        }
        if ((int) ($tool->lti_sendemailaddr ?? 0) === 1) {
            $claims['email'] = $USER->email;
        }
        return $claims;
    }

    /**
     * A page that posts a form at once (what mod_lti answers with, without script the form still has its button).
     *
     * @param string $action
     * @param array $fields
     * @return string
     */
    public static function autopost(string $action, array $fields): string {
        $html = '<form action="' . s($action) . '" name="oltiform" id="oltiform" method="post" ' .
            'enctype="application/x-www-form-urlencoded">' . "\n";
        foreach ($fields as $name => $value) {
            $html .= '<input type="hidden" name="' . s($name) . '" value="' . s($value) . '"/>' . "\n";
        }
        $html .= '<noscript><button type="submit">' . get_string('continue') . '</button></noscript>' . "\n";
        $html .= "</form>\n<script>document.getElementById('oltiform').submit();</script>\n";
        return $html;
    }
}
