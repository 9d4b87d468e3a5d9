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
 * Ad hoc task: one submission attempt's notice, retried by Moodle until the tool takes it.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\task;

use plagiarism_olti\local\sender;

/**
 * Sends the notice of one submission attempt. A failure throws, and Moodle runs the task again later with a growing
 * delay (\core\task\manager::adhoc_task_failed), so a tool that is down gets the notice once it is back.
 */
class send_notice extends \core\task\adhoc_task {
    /**
     * Queues the notice of a submission attempt, once: a second queueing of the same attempt joins the first.
     *
     * @param int $submissionid
     * @param int $attempt
     */
    public static function queue(int $submissionid, int $attempt): void {
        $task = new self();
        $task->set_custom_data(['submissionid' => $submissionid, 'attempt' => $attempt]);
        $task->set_component('plagiarism_olti');
        \core\task\manager::queue_adhoc_task($task, true);
    }

    /**
     * Sends what of the attempt is not sent yet.
     */
    public function execute() {
        global $DB;
        $data = $this->get_custom_data();
        $assets = $DB->get_records_select('plagiarism_olti_asset',
            "submissionid = ? AND attempt = ? AND noticestatus <> 'sent'",
            [(int) $data->submissionid, (int) $data->attempt], 'id');
        if (!$assets) {
            return; // Sent meanwhile, or the submission was removed.
        }
        sender::send($assets);
        mtrace('plagiarism_olti: notice sent for submission ' . $data->submissionid . ' attempt ' . $data->attempt .
            ' (' . count($assets) . ' asset(s))');
    }
}
