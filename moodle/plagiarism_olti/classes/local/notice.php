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
 * The LtiAssetProcessorSubmissionNotice a submission attempt becomes, signed with mod_lti's platform key.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\local;

use Firebase\JWT\JWT;
use mod_lti\local\ltiopenid\jwks_helper;

/**
 * Builds and signs the notice of one submission attempt: every asset of it in one
 * LtiAssetProcessorSubmissionNotice (1EdTech Asset Processor 1.0 and Platform Notification Service 1.0), signed
 * with the key Moodle signs its LTI launches with, so the tool checks it with mod/lti/certs.php.
 */
class notice {
    /** @var string Claims' prefix. */
    const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
    /** @var string The notice type. */
    const TYPE = 'LtiAssetProcessorSubmissionNotice';
    /** @var string Scope the tool asks mod/lti/token.php for to fetch an asset. */
    const SCOPE_ASSET = 'https://purl.imsglobal.org/spec/lti-ap/scope/asset.readonly';
    /** @var string Scope the tool asks for to post a report. */
    const SCOPE_REPORT = 'https://purl.imsglobal.org/spec/lti-ap/scope/report';
    /** @var string The learner's role. */
    const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';

    /**
     * The notice's claims for these assets, all of one submission attempt. A notice without assets says that the
     * submission's files are gone (a teacher removed the submission).
     *
     * @param \stdClass $tool the tool type's configuration (config::tool())
     * @param \stdClass $first the submission attempt: courseid, cmid, submissionid, attempt, userid, groupid, anonymous
     * @param \stdClass[] $assets plagiarism_olti_asset rows of that submission and attempt
     * @return array
     */
    public static function claims(\stdClass $tool, \stdClass $first, array $assets): array {
        global $CFG, $DB;
        $course = get_course($first->courseid);
        $cm = get_coursemodule_from_id('assign', $first->cmid, 0, false, MUST_EXIST);
        $now = time();
        $user = ['user_id' => (string) $first->userid, 'roles' => [self::LEARNER]];
        if (!$first->anonymous) {
            $person = $DB->get_record('user', ['id' => $first->userid, 'deleted' => 0],
                'id, firstname, lastname, email, firstnamephonetic, lastnamephonetic, middlename, alternatename');
            if ($person) {
                $user['name'] = fullname($person);
                $user['given_name'] = $person->firstname;
                $user['family_name'] = $person->lastname;
                $user['email'] = $person->email;
            }
        }
        $rows = [];
        foreach ($assets as $asset) {
            $row = [
                'asset_id' => $asset->uuid,
                'url' => urls::asset((int) $asset->courseid, $asset->uuid),
                'title' => $asset->kind === 'onlinetext' ? get_string('onlinetext', 'plagiarism_olti') : $asset->filename,
                'filename' => $asset->filename,
                'size' => (int) $asset->filesize,
                'content_type' => $asset->mimetype,
                'timestamp' => gmdate('Y-m-d\TH:i:s\Z', (int) $asset->timecreated),
            ];
            if ($asset->sha256 !== '') {
                $row['sha256_checksum'] = base64_encode(hex2bin($asset->sha256));
            }
            $rows[] = $row;
        }
        $claims = [
            'iss' => $CFG->wwwroot,
            'aud' => $tool->lti_clientid,
            'iat' => $now,
            'exp' => $now + 3600,
            'nonce' => bin2hex(random_bytes(10)),
            self::LTI . 'deployment_id' => (string) $tool->typeid,
            self::LTI . 'version' => '1.3.0',
            self::LTI . 'notice' => [
                'id' => \core\uuid::generate(),
                'timestamp' => gmdate('Y-m-d\TH:i:s\Z', $now),
                'type' => self::TYPE,
            ],
            self::LTI . 'for_user' => $user,
            self::LTI . 'context' => [
                'id' => (string) $course->id,
                'label' => $course->shortname,
                'title' => format_string($course->fullname, true, ['context' => \context_course::instance($course->id)]),
                'type' => ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'],
            ],
            self::LTI . 'activity' => [
                'id' => (string) $cm->id,
                'title' => format_string($cm->name, true, ['context' => \context_module::instance($cm->id)]),
            ],
            self::LTI . 'submission' => ['id' => self::submission_id($first)],
            self::LTI . 'assetservice' => ['scope' => [self::SCOPE_ASSET], 'assets' => $rows],
            self::LTI . 'assetreport' => [
                'scope' => [self::SCOPE_REPORT],
                'report_url' => urls::report((int) $first->courseid, (int) $first->submissionid),
            ],
            self::LTI . 'tool_platform' => [
                'product_family_code' => 'moodle',
                'version' => (string) $CFG->version,
                'guid' => parse_url($CFG->wwwroot, PHP_URL_HOST),
                'url' => $CFG->wwwroot,
            ],
        ];
        if (!empty($first->groupid)) {
            $group = $DB->get_record('groups', ['id' => $first->groupid], 'id, name');
            $claims[self::LTI . 'custom'] = [
                'group_id' => (string) $first->groupid,
                'group_name' => $group && !$first->anonymous ? $group->name : '',
                'submitted_by_user_id' => (string) $first->userid,
            ];
        }
        return $claims;
    }

    /**
     * The submission id the tool sees: a new attempt is a new submission.
     *
     * @param \stdClass $asset
     * @return string
     */
    public static function submission_id(\stdClass $asset): string {
        return $asset->submissionid . '-' . $asset->attempt;
    }

    /**
     * Signs claims with mod_lti's platform key (the key id of mod/lti/certs.php).
     *
     * @param array $claims
     * @return string the JWT
     */
    public static function sign(array $claims): string {
        global $CFG;
        require_once($CFG->dirroot . '/mod/lti/locallib.php');
        $key = jwks_helper::get_private_key();
        return JWT::encode($claims, $key['key'], 'RS256', $key['kid']);
    }
}
