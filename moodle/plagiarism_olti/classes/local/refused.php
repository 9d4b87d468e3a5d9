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
 * The tool's refusal of a notice.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\local;

/**
 * The tool answered a notice with an error status; its sentence is the exception's debug information.
 */
class refused extends \moodle_exception {
    /**
     * A refusal.
     *
     * @param \stdClass $a status and url
     * @param string $said what the tool said
     */
    public function __construct(\stdClass $a, string $said) {
        parent::__construct('noticerefused', 'plagiarism_olti', '', $a, $said);
    }
}
