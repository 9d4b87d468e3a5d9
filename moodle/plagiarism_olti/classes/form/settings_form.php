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
 * The site settings' form.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\form;

defined('MOODLE_INTERNAL') || die();

require_once($CFG->libdir . '/formslib.php');

/**
 * The site's settings: on or off, which LTI 1.3 tool type checks the papers, and how it is spoken to.
 */
class settings_form extends \moodleform {
    /**
     * The fields.
     */
    protected function definition() {
        global $DB;
        $mform = $this->_form;
        $mform->addElement('advcheckbox', 'enabled', get_string('settingenabled', 'plagiarism_olti'));
        $types = [0 => get_string('choosedots')];
        $rows = $DB->get_records_select('lti_types', 'ltiversion = ? AND state = ?', ['1.3.0', LTI_TOOL_STATE_CONFIGURED],
            'name', 'id, name, baseurl');
        foreach ($rows as $row) {
            $types[$row->id] = format_string($row->name) . ' (' . s($row->baseurl) . ')';
        }
        $mform->addElement('select', 'typeid', get_string('settingtypeid', 'plagiarism_olti'), $types);
        $mform->addHelpButton('typeid', 'settingtypeid', 'plagiarism_olti');
        $mform->addElement('text', 'noticeurl', get_string('settingnoticeurl', 'plagiarism_olti'), ['size' => 60]);
        $mform->setType('noticeurl', PARAM_URL);
        $mform->addHelpButton('noticeurl', 'settingnoticeurl', 'plagiarism_olti');
        $mform->addElement('text', 'resendafter', get_string('settingresendafter', 'plagiarism_olti'), ['size' => 4]);
        $mform->setType('resendafter', PARAM_INT);
        $mform->setDefault('resendafter', 2);
        $mform->addHelpButton('resendafter', 'settingresendafter', 'plagiarism_olti');
        $mform->addElement('advcheckbox', 'defaulton', get_string('settingdefaulton', 'plagiarism_olti'));
        $mform->addElement('textarea', 'disclosure', get_string('settingdisclosure', 'plagiarism_olti'),
            ['rows' => 4, 'cols' => 60]);
        $mform->setType('disclosure', PARAM_TEXT);
        $mform->addHelpButton('disclosure', 'settingdisclosure', 'plagiarism_olti');
        $this->add_action_buttons(false);
    }

    /**
     * A plugin switched on needs a tool type.
     *
     * @param array $data
     * @param array $files
     * @return array
     */
    public function validation($data, $files) {
        $errors = parent::validation($data, $files);
        if (!empty($data['enabled']) && empty($data['typeid'])) {
            $errors['typeid'] = get_string('settingtypeidrequired', 'plagiarism_olti');
        }
        if ((int) $data['resendafter'] < 1) {
            $errors['resendafter'] = get_string('settingresendafterrange', 'plagiarism_olti');
        }
        return $errors;
    }
}
