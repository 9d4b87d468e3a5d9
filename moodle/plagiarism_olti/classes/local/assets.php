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
 * The plugin's copies of submitted papers (its assets) and their reports: made, found, and removed.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\local;

/**
 * The assets: each file and online text of a submission attempt, copied into the plugin's own file area when it is
 * submitted, so that the tool fetches what the student submitted even after the student changes the submission.
 * Moodle's file store keeps one copy of each content, so a snapshot adds a row, not the bytes again.
 */
class assets {
    /** @var string The plugin's file area for the snapshots. */
    const FILEAREA = 'assets';

    /** @var string The file name an online text is served under (the tool reads an .html text entry's words). */
    const ONLINETEXT_FILENAME = 'onlinetext.html';

    /**
     * Copies what a submission attempt holds now (its files and its online text) into the plugin's area, once per
     * content. Returns the ids of the assets it made; none when everything was copied before.
     *
     * @param \assign $assign
     * @param \stdClass $submission an assign_submission row
     * @param int $actorid the user who saved or submitted it
     * @param bool $anonymous whether the assignment hides students' identities (blind marking)
     * @return int[]
     */
    public static function snapshot(\assign $assign, \stdClass $submission, int $actorid, bool $anonymous): array {
        global $DB;
        $cm = $assign->get_course_module();
        $context = $assign->get_context();
        $fs = get_file_storage();
        // A team submission belongs to the group (userid 0): the paper is the member's who submitted it.
        $userid = !empty($submission->userid) ? (int) $submission->userid : $actorid;
        $base = [
            'cmid' => (int) $cm->id,
            'courseid' => (int) $cm->course,
            'contextid' => (int) $context->id,
            'submissionid' => (int) $submission->id,
            'attempt' => (int) $submission->attemptnumber,
            'userid' => $userid,
            'groupid' => (int) ($submission->groupid ?? 0),
            'anonymous' => (int) $anonymous,
        ];
        $made = [];
        $transaction = $DB->start_delegated_transaction();
        $fileplugin = $assign->get_submission_plugin_by_type('file');
        if ($fileplugin && $fileplugin->is_enabled()) {
            $files = $fs->get_area_files($context->id, 'assignsubmission_file', 'submission_files', $submission->id,
                'id', false);
            foreach ($files as $file) {
                $id = self::add($base + [
                    'kind' => 'file',
                    'sourcehash' => $file->get_contenthash(),
                    'filename' => $file->get_filename(),
                    'mimetype' => $file->get_mimetype() ?: 'application/octet-stream',
                    'filesize' => $file->get_filesize(),
                ], function (array $record) use ($fs, $file) {
                    return $fs->create_file_from_storedfile($record, $file);
                });
                if ($id) {
                    $made[] = $id;
                }
            }
        }
        $textplugin = $assign->get_submission_plugin_by_type('onlinetext');
        if ($textplugin && $textplugin->is_enabled()) {
            $text = $DB->get_field('assignsubmission_onlinetext', 'onlinetext', ['submission' => $submission->id]);
            $text = trim((string) $text);
            if ($text !== '') {
                // The same trimmed text get_links() is given (assignsubmission_onlinetext's view), so it is found by it.
                $html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n" . $text . "\n</body></html>\n";
                $id = self::add($base + [
                    'kind' => 'onlinetext',
                    'sourcehash' => sha1($text),
                    'filename' => self::ONLINETEXT_FILENAME,
                    'mimetype' => 'text/html',
                    'filesize' => strlen($html),
                ], function (array $record) use ($fs, $html) {
                    return $fs->create_file_from_string($record, $html);
                });
                if ($id) {
                    $made[] = $id;
                }
            }
        }
        $transaction->allow_commit();
        return $made;
    }

    /**
     * Adds one asset unless the same content of the same attempt is there already.
     *
     * @param array $row the asset's fields
     * @param callable $store makes the snapshot file from a file record
     * @return int|null the new asset's id
     */
    private static function add(array $row, callable $store): ?int {
        global $DB;
        $seen = $DB->record_exists('plagiarism_olti_asset', [
            'submissionid' => $row['submissionid'],
            'attempt' => $row['attempt'],
            'kind' => $row['kind'],
            'sourcehash' => $row['sourcehash'],
        ]);
        if ($seen) {
            return null;
        }
        $row += [
            'uuid' => \core\uuid::generate(),
            'sha256' => '',
            'fileid' => 0,
            'noticestatus' => 'pending',
            'noticeattempts' => 0,
            'timenoticed' => 0,
            'timecreated' => time(),
        ];
        $id = $DB->insert_record('plagiarism_olti_asset', (object) $row);
        $file = $store([
            'contextid' => $row['contextid'],
            'component' => 'plagiarism_olti',
            'filearea' => self::FILEAREA,
            'itemid' => $id,
            'filepath' => '/',
            'filename' => $row['filename'],
            'userid' => $row['userid'],
            'mimetype' => $row['mimetype'],
        ]);
        // SHA-256 read from the stream, never the whole file in memory.
        $context = hash_init('sha256');
        $handle = $file->get_content_file_handle();
        hash_update_stream($context, $handle);
        fclose($handle);
        $DB->update_record('plagiarism_olti_asset', (object) [
            'id' => $id,
            'fileid' => $file->get_id(),
            'sha256' => hash_final($context),
            'filesize' => $file->get_filesize(),
        ]);
        return $id;
    }

    /**
     * Removes assets, their snapshot files and their reports.
     *
     * @param array $conditions plagiarism_olti_asset fields to match
     * @return int how many assets were removed
     */
    public static function remove(array $conditions): int {
        global $DB;
        $rows = $DB->get_records('plagiarism_olti_asset', $conditions, '', 'id, contextid');
        return self::remove_rows($rows);
    }

    /**
     * Removes the assets of these rows (id and contextid), their files and reports.
     *
     * @param \stdClass[] $rows
     * @return int
     */
    public static function remove_rows(array $rows): int {
        global $DB;
        if (!$rows) {
            return 0;
        }
        $fs = get_file_storage();
        foreach ($rows as $row) {
            $fs->delete_area_files($row->contextid, 'plagiarism_olti', self::FILEAREA, $row->id);
        }
        foreach (array_chunk(array_keys($rows), 500) as $ids) {
            $DB->delete_records_list('plagiarism_olti_report', 'assetid', $ids);
            $DB->delete_records_list('plagiarism_olti_asset', 'id', $ids);
        }
        return count($rows);
    }

    /**
     * Every asset of a course module with its reports, in one query: what get_links() shows on a page.
     *
     * @param int $cmid
     * @param int|null $userid only this student's (and their groups') assets, for a student's own page
     * @return array of ['assets' => [sourcehash key => asset], 'reports' => [assetid => report[]]]
     */
    public static function of_module(int $cmid, ?int $userid = null): array {
        global $DB;
        $params = ['cmid' => $cmid];
        $where = 'a.cmid = :cmid';
        if ($userid !== null) {
            $where .= ' AND (a.userid = :userid OR a.groupid IN (SELECT gm.groupid FROM {groups_members} gm
                                                                  WHERE gm.userid = :memberid))';
            $params['userid'] = $userid;
            $params['memberid'] = $userid;
        }
        $sql = "SELECT r.id AS reportid, a.id AS assetid, a.uuid, a.submissionid, a.attempt, a.userid, a.groupid, a.kind,
                       a.sourcehash, a.filename, a.noticestatus, a.timecreated,
                       r.type, r.processingprogress, r.result, r.scoregiven, r.scoremaximum, r.indicationcolor,
                       r.indicationalt, r.commenttext, r.errorcode, r.priority, r.visibletoowner, r.title, r.timemodified
                  FROM {plagiarism_olti_asset} a
             LEFT JOIN {plagiarism_olti_report} r ON r.assetid = a.id
                 WHERE $where
              ORDER BY a.attempt DESC, a.id DESC, r.type";
        $found = ['assets' => [], 'reports' => []];
        $rs = $DB->get_recordset_sql($sql, $params);
        foreach ($rs as $row) {
            // The newest attempt's copy of a content is the one shown (a content submitted again in a new attempt).
            $key = $row->kind === 'file' ? "file:{$row->submissionid}:{$row->sourcehash}" : "text:{$row->sourcehash}";
            if (!isset($found['assets'][$key])) {
                $found['assets'][$key] = $row;
            }
            if ($row->type !== null && $found['assets'][$key]->assetid == $row->assetid) {
                $found['reports'][$row->assetid][$row->type] = $row;
            }
        }
        $rs->close();
        return $found;
    }
}
