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
 * Events the plugin follows: a submission to announce, and what removes one.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

// Moodle fires assessable_submitted after every save when students need not press "Submit" (mod/assign/locallib.php
// save_submission), and on the final "Submit" otherwise (submit_for_grading): one notice then carries everything the
// save holds, its files and its online text. The assessable_uploaded events fire once per submission plugin in the
// middle of that save (and for drafts that are not submitted yet), so they announce nothing of their own.
$observers = [
    [
        'eventname' => '\mod_assign\event\assessable_submitted',
        'callback' => '\plagiarism_olti\observer::assessable_submitted',
    ],
    [
        'eventname' => '\mod_assign\event\submission_removed',
        'callback' => '\plagiarism_olti\observer::submission_removed',
    ],
    [
        'eventname' => '\core\event\user_deleted',
        'callback' => '\plagiarism_olti\observer::user_deleted',
    ],
    [
        'eventname' => '\core\event\course_module_deleted',
        'callback' => '\plagiarism_olti\observer::course_module_deleted',
    ],
    [
        'eventname' => '\core\event\course_reset_ended',
        'callback' => '\plagiarism_olti\observer::course_reset_ended',
    ],
];
