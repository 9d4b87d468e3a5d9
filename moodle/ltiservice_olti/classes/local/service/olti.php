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
 * The Asset Processor's two services for mod_assign's submissions: the Asset Service (the tool downloads a submitted
 * file) and the Asset Report Service (the tool posts what it found), behind mod_lti's own token endpoint.
 * Specification: https://www.imsglobal.org/spec/lti-ap/v1p0 ; modelled on ltiservice_gradebookservices.
 *
 * @package    ltiservice_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace ltiservice_olti\local\service;

use ltiservice_olti\local\refused;
use ltiservice_olti\local\resources\asset;
use ltiservice_olti\local\resources\report;
use mod_lti\local\ltiservice\service_base;
use moodle\mod\lti as lti;

defined('MOODLE_INTERNAL') || die();

global $CFG;
require_once($CFG->dirroot . '/mod/lti/locallib.php');
require_once($CFG->dirroot . '/mod/lti/OAuthBody.php');

/**
 * The service: its resources, and its scopes granted to the tool type the plagiarism plugin uses, and to no other.
 */
class olti extends service_base {

    /** Read a submitted file (the Asset Service), as Blackboard's and the tool's Asset Processor name it. */
    const SCOPE_ASSET_READ = 'https://purl.imsglobal.org/spec/lti-ap/scope/asset.readonly';
    /** Post an asset report (the Asset Report Service). */
    const SCOPE_REPORT = 'https://purl.imsglobal.org/spec/lti-ap/scope/report';

    /**
     * The service's identity.
     */
    public function __construct() {
        parent::__construct();
        $this->id = 'olti';
        $this->name = get_string($this->get_component_id(), $this->get_component_id());
    }

    /**
     * The asset and report resources.
     *
     * @return array of resource_base
     */
    public function get_resources() {
        if (empty($this->resources)) {
            $this->resources = [new asset($this), new report($this)];
        }
        return $this->resources;
    }

    /**
     * The tool type the plagiarism plugin sends submissions to (its setting), or 0 when none is chosen.
     *
     * @return int lti_types.id
     */
    public static function chosen_type(): int {
        return (int) get_config('plagiarism_olti', 'typeid');
    }

    /**
     * Both scopes for the chosen tool type, none for any other: mod/lti/token.php grants only what this returns.
     *
     * @return array of scope URIs
     */
    public function get_permitted_scopes() {
        $type = $this->get_type();
        if (empty($type) || empty($type->id) || (int) $type->id !== self::chosen_type()) {
            return [];
        }
        return [self::SCOPE_ASSET_READ, self::SCOPE_REPORT];
    }

    /**
     * Every scope this service knows.
     *
     * @return array of scope URIs
     */
    public function get_scopes() {
        return [self::SCOPE_ASSET_READ, self::SCOPE_REPORT];
    }

    /**
     * Checks a request's token and course, in this order: a bearer token of mod/lti/token.php with the scope (401),
     * issued to the chosen tool type (403), for a course that exists (404) and where that type may be used (403).
     *
     * @param string $scope the scope the resource needs
     * @param string $courseid the course named in the address
     * @return \stdClass the course record (id)
     * @throws refused
     */
    public function authorise(string $scope, string $courseid): \stdClass {
        global $DB;
        $headers = lti\OAuthUtil::get_headers();
        $authorization = $headers['Authorization'] ?? '';
        if (substr($authorization, 0, 7) !== 'Bearer ') {
            throw new refused(401, 'An access token (Authorization: Bearer) from mod/lti/token.php is required.');
        }
        $typeid = lti\get_oauth_key_from_headers(null, [$scope]);
        if (!is_int($typeid) || $typeid <= 0) {
            throw new refused(401, "The access token is unknown, expired, or not granted the scope {$scope}.");
        }
        $this->set_type(lti_get_type($typeid));
        $this->set_typeconfig(lti_get_type_config($typeid));
        if ($typeid !== self::chosen_type()) {
            throw new refused(403, 'The access token belongs to a tool type the originality check does not use.');
        }
        if (!preg_match('/^[1-9][0-9]{0,9}$/', $courseid) ||
                !($course = $DB->get_record('course', ['id' => (int) $courseid], 'id'))) {
            throw new refused(404, 'No such course.');
        }
        if (!$this->is_allowed_in_context($typeid, $course->id)) {
            throw new refused(403, 'The tool type may not be used in this course.');
        }
        return $course;
    }

    /**
     * The asset a request names in a course: not found when its id is not a UUID, names no asset, or names one of
     * another course (or one removed, whose row is gone), so that an id found elsewhere tells nothing.
     *
     * @param string $uuid the asset_id the notice named
     * @param int $courseid the course of the address
     * @return \stdClass the plagiarism_olti_asset record
     * @throws refused
     */
    public static function asset_in_course(string $uuid, int $courseid): \stdClass {
        global $DB;
        $pattern = '/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/';
        $asset = preg_match($pattern, $uuid) ?
            $DB->get_record('plagiarism_olti_asset', ['uuid' => $uuid, 'courseid' => $courseid]) : false;
        if (!$asset) {
            throw new refused(404, 'No such asset in this course.');
        }
        return $asset;
    }
}
