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
 * Restore of an assignment's switch for the originality check.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

/**
 * Restores whether the check is on, for the restored assignment.
 */
class restore_plagiarism_olti_plugin extends restore_plagiarism_plugin {
    /**
     * The module's paths.
     *
     * @return restore_path_element[]
     */
    protected function define_module_plugin_structure() {
        return [new restore_path_element('olticonfig', $this->get_pathfor('olti_configs/olti_config'))];
    }

    /**
     * Keeps the switch for the new course module.
     *
     * @param array $data
     */
    public function process_olticonfig($data) {
        global $DB;
        $data = (object) $data;
        $cmid = $this->task->get_moduleid();
        if (!$DB->record_exists('plagiarism_olti_config', ['cmid' => $cmid])) {
            $DB->insert_record('plagiarism_olti_config',
                (object) ['cmid' => $cmid, 'enabled' => (int) $data->enabled, 'timemodified' => time()]);
        }
    }
}
