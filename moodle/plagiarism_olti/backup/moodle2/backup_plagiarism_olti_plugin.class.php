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
 * Backup of an assignment's switch for the originality check.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

/**
 * Backs up whether the check is on for the assignment. The copies and reports stay with the original: a restored
 * assignment is another assignment to the tool, whose papers are checked when they are submitted to it.
 */
class backup_plagiarism_olti_plugin extends backup_plagiarism_plugin {
    /**
     * The module's part of the backup.
     *
     * @return backup_plugin_element
     */
    protected function define_module_plugin_structure() {
        $plugin = $this->get_plugin_element();
        $element = new backup_nested_element($this->get_recommended_name());
        $plugin->add_child($element);
        $configs = new backup_nested_element('olti_configs');
        $config = new backup_nested_element('olti_config', ['id'], ['enabled']);
        $element->add_child($configs);
        $configs->add_child($config);
        $config->set_source_table('plagiarism_olti_config', ['cmid' => backup::VAR_PARENTID]);
        return $plugin;
    }
}
