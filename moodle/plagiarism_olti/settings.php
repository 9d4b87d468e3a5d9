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
 * The plugin's settings page (Site administration, Plugins, Plagiarism).
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

require_once(__DIR__ . '/../../config.php');
require_once($CFG->libdir . '/adminlib.php');
require_once($CFG->dirroot . '/mod/lti/locallib.php');

admin_externalpage_setup('plagiarismolti');
$context = context_system::instance();
require_capability('moodle/site:config', $context);

$form = new \plagiarism_olti\form\settings_form();
$names = ['enabled', 'typeid', 'noticeurl', 'resendafter', 'defaulton', 'disclosure'];
if ($data = $form->get_data()) {
    foreach ($names as $name) {
        set_config($name, $data->$name ?? '', 'plagiarism_olti');
    }
    redirect($PAGE->url, get_string('changessaved'), null, \core\output\notification::NOTIFY_SUCCESS);
}
$current = get_config('plagiarism_olti');
$values = [];
foreach ($names as $name) {
    if (isset($current->$name)) {
        $values[$name] = $current->$name;
    }
}
$form->set_data($values);

echo $OUTPUT->header();
echo $OUTPUT->heading(get_string('pluginname', 'plagiarism_olti'));
echo $OUTPUT->box(get_string('settingsintro', 'plagiarism_olti'));
$form->display();
echo $OUTPUT->footer();
