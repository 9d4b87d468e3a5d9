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
 * Ad hoc task: the tool told that a removed submission's files are gone.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\task;

use plagiarism_olti\local\sender;

/**
 * Tells the tool that a teacher removed a submission: its notice with no assets. Moodle retries it as any ad hoc
 * task; the plugin's own copies and reports are gone already.
 */
class send_removal extends \core\task\adhoc_task {
    /**
     * Queues the removal notice of a submission attempt.
     *
     * @param \stdClass $attempt courseid, cmid, submissionid, attempt, userid, groupid, anonymous
     */
    public static function queue(\stdClass $attempt): void {
        $task = new self();
        $task->set_custom_data($attempt);
        $task->set_component('plagiarism_olti');
        \core\task\manager::queue_adhoc_task($task, true);
    }

    /**
     * Sends it.
     */
    public function execute() {
        $attempt = $this->get_custom_data();
        sender::send_removal($attempt);
        mtrace('plagiarism_olti: removal sent for submission ' . $attempt->submissionid . ' attempt ' . $attempt->attempt);
    }
}
