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
 * What the plugin does on Moodle's events: submissions announced, removed ones forgotten.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti;

use plagiarism_olti\local\assets;
use plagiarism_olti\local\config;
use plagiarism_olti\task\send_notice;
use plagiarism_olti\task\send_removal;

/**
 * Event observers.
 */
class observer {
    /**
     * A submission was submitted (the final "Submit", or any save where none is asked for): its files and online text
     * are copied and announced to the tool from an ad hoc task.
     *
     * @param \mod_assign\event\assessable_submitted $event
     */
    public static function assessable_submitted(\mod_assign\event\assessable_submitted $event): void {
        global $CFG, $DB;
        if (!config::site_ready() || !config::enabled((int) $event->contextinstanceid)) {
            return;
        }
        require_once($CFG->dirroot . '/mod/assign/locallib.php');
        $submission = $DB->get_record('assign_submission', ['id' => $event->objectid]);
        if (!$submission || $submission->status !== ASSIGN_SUBMISSION_STATUS_SUBMITTED) {
            return;
        }
        [$course, $cm] = get_course_and_cm_from_cmid($event->contextinstanceid, 'assign');
        $assign = new \assign(\context_module::instance($cm->id), $cm, $course);
        $anonymous = $assign->is_blind_marking() || !empty($event->anonymous);
        $made = assets::snapshot($assign, $submission, (int) $event->userid, $anonymous);
        if ($made) {
            send_notice::queue((int) $submission->id, (int) $submission->attemptnumber);
        }
    }

    /**
     * A teacher removed a submission: the copies of its current attempt and their reports go.
     *
     * @param \mod_assign\event\submission_removed $event
     */
    public static function submission_removed(\mod_assign\event\submission_removed $event): void {
        global $DB;
        $submission = $DB->get_record('assign_submission', ['id' => $event->objectid], 'id, attemptnumber');
        if (!$submission) {
            return;
        }
        $sent = $DB->get_records('plagiarism_olti_asset',
            ['submissionid' => $submission->id, 'attempt' => $submission->attemptnumber], 'id');
        if (!$sent) {
            return;
        }
        $first = reset($sent);
        $told = array_filter($sent, fn($row) => $row->noticestatus === 'sent');
        assets::remove(['submissionid' => $submission->id, 'attempt' => $submission->attemptnumber]);
        if ($told && config::site_ready()) {
            send_removal::queue((object) [
                'courseid' => (int) $first->courseid,
                'cmid' => (int) $first->cmid,
                'submissionid' => (int) $first->submissionid,
                'attempt' => (int) $first->attempt,
                'userid' => (int) $first->userid,
                'groupid' => (int) $first->groupid,
                'anonymous' => (int) $first->anonymous,
            ]);
        }
    }

    /**
     * A user was deleted: every copy of their papers and every report on them go.
     *
     * @param \core\event\user_deleted $event
     */
    public static function user_deleted(\core\event\user_deleted $event): void {
        assets::remove(['userid' => $event->objectid]);
    }

    /**
     * An assignment was deleted: its switch, copies and reports go.
     *
     * @param \core\event\course_module_deleted $event
     */
    public static function course_module_deleted(\core\event\course_module_deleted $event): void {
        global $DB;
        assets::remove(['cmid' => $event->objectid]);
        $DB->delete_records('plagiarism_olti_config', ['cmid' => $event->objectid]);
    }

    /**
     * A course was reset with its assignments' submissions: the copies and reports of the course go; the switches
     * stay, as the assignments' other settings do.
     *
     * @param \core\event\course_reset_ended $event
     */
    public static function course_reset_ended(\core\event\course_reset_ended $event): void {
        $options = $event->other['reset_options'] ?? [];
        if (!empty($options['reset_assign_submissions'])) {
            assets::remove(['courseid' => $event->courseid]);
        }
    }
}
