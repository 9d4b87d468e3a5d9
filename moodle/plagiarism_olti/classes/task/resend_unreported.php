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
 * Scheduled task: papers the tool never reported on are announced again.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\task;

use plagiarism_olti\local\config;

/**
 * Announces again what the tool has not answered: an asset whose notice was sent some hours ago and holds no report
 * yet, or whose notice failed and whose ad hoc task is gone. The tool keeps an asset once, so a notice sent again
 * starts no second check; it makes the tool send its reports again.
 */
class resend_unreported extends \core\task\scheduled_task {
    /** @var int At most this many notices per run. */
    const BATCH = 200;
    /** @var int Tries before an asset is left for an administrator to look at. */
    const MAX_ATTEMPTS = 10;

    /**
     * The task's name in the admin's task list.
     *
     * @return string
     */
    public function get_name() {
        return get_string('taskresend', 'plagiarism_olti');
    }

    /**
     * Queues a notice for each submission attempt with an asset not reported on.
     */
    public function execute() {
        global $DB;
        if (!config::site_ready()) {
            return;
        }
        $before = time() - config::resend_after_hours() * HOURSECS;
        $sql = "SELECT DISTINCT a.submissionid, a.attempt
                  FROM {plagiarism_olti_asset} a
             LEFT JOIN {plagiarism_olti_report} r ON r.assetid = a.id
                 WHERE r.id IS NULL AND a.noticeattempts < :max
                   AND ((a.noticestatus = 'sent' AND a.timenoticed < :before)
                        OR (a.noticestatus <> 'sent' AND a.timecreated < :created))";
        $rows = $DB->get_recordset_sql($sql, ['max' => self::MAX_ATTEMPTS, 'before' => $before,
            'created' => $before], 0, self::BATCH);
        $count = 0;
        foreach ($rows as $row) {
            $DB->set_field('plagiarism_olti_asset', 'noticestatus', 'pending',
                ['submissionid' => $row->submissionid, 'attempt' => $row->attempt]);
            send_notice::queue((int) $row->submissionid, (int) $row->attempt);
            $count++;
        }
        $rows->close();
        mtrace("plagiarism_olti: $count notice(s) queued again");
    }
}
