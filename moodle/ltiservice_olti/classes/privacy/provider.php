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
 * Privacy provider of ltiservice_olti: it keeps no personal data of its own (plagiarism_olti holds the copies and
 * reports, and exports and deletes them).
 *
 * @package    ltiservice_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace ltiservice_olti\privacy;

/**
 * Null provider: no data stored by this subplugin itself.
 */
class provider implements \core_privacy\local\metadata\null_provider {
    /**
     * The reason this subplugin stores no personal data.
     *
     * @return string the language string identifier
     */
    public static function get_reason(): string {
        return 'privacy:metadata';
    }
}
