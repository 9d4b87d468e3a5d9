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
 * The addresses of the Asset Service and the Asset Report service (ltiservice_olti) and of the report launch.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\local;

/**
 * The service addresses the notice names. ltiservice_olti serves them under mod/lti/services.php; this is the one
 * place that spells them.
 */
class urls {
    /**
     * Where the tool fetches an asset.
     *
     * @param int $courseid
     * @param string $uuid the asset's id
     * @return string
     */
    public static function asset(int $courseid, string $uuid): string {
        global $CFG;
        return $CFG->wwwroot . '/mod/lti/services.php/' . $courseid . '/olti/assets/' . $uuid;
    }

    /**
     * Where the tool posts the reports of a submission's assets.
     *
     * @param int $courseid
     * @param int $submissionid
     * @return string
     */
    public static function report(int $courseid, int $submissionid): string {
        global $CFG;
        return $CFG->wwwroot . '/mod/lti/services.php/' . $courseid . '/olti/reports/' . $submissionid;
    }

    /**
     * The page that opens a report through an LTI launch.
     *
     * @param string $uuid the asset's id
     * @param string $type the report type
     * @return \moodle_url
     */
    public static function view_report(string $uuid, string $type): \moodle_url {
        return new \moodle_url('/plagiarism/olti/launch.php', ['asset' => $uuid, 'type' => $type]);
    }
}
