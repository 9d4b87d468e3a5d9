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
 * Privacy: what the plugin keeps of a student, sends to the tool, and how it is exported and deleted.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\privacy;

use core_privacy\local\metadata\collection;
use core_privacy\local\request\userlist;
use core_privacy\local\request\writer;
use plagiarism_olti\local\assets;

/**
 * The plugin keeps a copy of each paper and the tool's reports on it, and sends the paper to the tool.
 */
class provider implements
        \core_privacy\local\metadata\provider,
        \core_plagiarism\privacy\plagiarism_provider,
        \core_plagiarism\privacy\plagiarism_user_provider {

    /**
     * What is kept and sent.
     *
     * @param collection $collection
     * @return collection
     */
    public static function get_metadata(collection $collection): collection {
        $collection->add_database_table('plagiarism_olti_asset', [
            'userid' => 'privacy:metadata:plagiarism_olti_asset:userid',
            'filename' => 'privacy:metadata:plagiarism_olti_asset:filename',
            'timecreated' => 'privacy:metadata:plagiarism_olti_asset:timecreated',
        ], 'privacy:metadata:plagiarism_olti_asset');
        $collection->add_database_table('plagiarism_olti_report', [
            'result' => 'privacy:metadata:plagiarism_olti_report:result',
            'commenttext' => 'privacy:metadata:plagiarism_olti_report:commenttext',
        ], 'privacy:metadata:plagiarism_olti_report');
        $collection->add_subsystem_link('core_files', [], 'privacy:metadata:core_files');
        $collection->add_external_location_link('tool', [
            'userid' => 'privacy:metadata:tool:userid',
            'fullname' => 'privacy:metadata:tool:fullname',
            'email' => 'privacy:metadata:tool:email',
            'content' => 'privacy:metadata:tool:content',
        ], 'privacy:metadata:tool');
        return $collection;
    }

    /**
     * Exports a student's copies and reports in an assignment.
     *
     * @param int $userid
     * @param \context $context
     * @param array $subcontext
     * @param array $linkarray
     */
    public static function export_plagiarism_user_data(int $userid, \context $context, array $subcontext, array $linkarray) {
        global $DB;
        if ($context->contextlevel != CONTEXT_MODULE) {
            return;
        }
        $rows = $DB->get_records('plagiarism_olti_asset', ['contextid' => $context->id, 'userid' => $userid], 'id');
        if (!$rows) {
            return;
        }
        $reports = $DB->get_records_list('plagiarism_olti_report', 'assetid', array_keys($rows), 'id');
        $subcontext = array_merge($subcontext, [get_string('pluginname', 'plagiarism_olti')]);
        $data = [];
        foreach ($rows as $row) {
            $data[$row->id] = (object) [
                'filename' => $row->filename,
                'kind' => $row->kind,
                'attempt' => $row->attempt,
                'submitted' => \core_privacy\local\request\transform::datetime($row->timecreated),
                'reports' => [],
            ];
            writer::with_context($context)->export_area_files($subcontext, 'plagiarism_olti', assets::FILEAREA, $row->id);
        }
        foreach ($reports as $report) {
            $data[$report->assetid]->reports[] = (object) [
                'type' => $report->type,
                'progress' => $report->processingprogress,
                'result' => $report->result,
                'comment' => $report->commenttext,
                'time' => \core_privacy\local\request\transform::datetime($report->timemodified),
            ];
        }
        writer::with_context($context)->export_data($subcontext, (object) ['papers' => array_values($data)]);
    }

    /**
     * Deletes every copy and report in a context.
     *
     * @param \context $context
     */
    public static function delete_plagiarism_for_context(\context $context) {
        assets::remove(['contextid' => $context->id]);
    }

    /**
     * Deletes a student's copies and reports in a context.
     *
     * @param int $userid
     * @param \context $context
     */
    public static function delete_plagiarism_for_user(int $userid, \context $context) {
        assets::remove(['contextid' => $context->id, 'userid' => $userid]);
    }

    /**
     * Deletes these students' copies and reports in a context.
     *
     * @param array $userids
     * @param \context $context
     */
    public static function delete_plagiarism_for_users(array $userids, \context $context) {
        foreach ($userids as $userid) {
            self::delete_plagiarism_for_user((int) $userid, $context);
        }
    }
}
