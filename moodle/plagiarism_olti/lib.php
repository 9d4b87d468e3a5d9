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
 * The plagiarism plugin: results beside each paper, the students' disclosure, and the assignment form's switch.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

global $CFG;
require_once($CFG->dirroot . '/plagiarism/lib.php');

use plagiarism_olti\local\assets;
use plagiarism_olti\local\config;
use plagiarism_olti\local\urls;

/**
 * Shows the tool's reports beside each file and online text of mod_assign (the grader, the submission page, the
 * student's view), and the disclosure on the student's submission page.
 */
class plagiarism_plugin_olti extends plagiarism_plugin {
    /** @var array Each course module's assets and reports, read once per page (one query, never one per file). */
    private static $loaded = [];

    /**
     * Forgets what was read: a page is one request, a test may be many.
     */
    public static function reset_cache(): void {
        self::$loaded = [];
    }

    /**
     * The reports beside one file or online text.
     *
     * @param array $linkarray userid, cmid, course, and file (a stored_file) or content (the online text)
     * @return string
     */
    public function get_links($linkarray) {
        global $OUTPUT, $USER;
        $cmid = (int) ($linkarray['cmid'] ?? 0);
        if (!$cmid || !config::site_ready() || !$this->enabled_cached($cmid)) {
            return '';
        }
        $context = context_module::instance($cmid);
        $grader = has_capability('plagiarism/olti:viewreport', $context);
        $found = $this->module($cmid, $grader ? null : (int) $USER->id);
        if (!empty($linkarray['file']) && $linkarray['file'] instanceof stored_file) {
            $file = $linkarray['file'];
            if ($file->get_component() !== 'assignsubmission_file') {
                return '';
            }
            $key = 'file:' . $file->get_itemid() . ':' . $file->get_contenthash();
        } else if (isset($linkarray['content']) && trim((string) $linkarray['content']) !== '') {
            $key = 'text:' . sha1(trim((string) $linkarray['content']));
        } else {
            return '';
        }
        $asset = $found['assets'][$key] ?? null;
        if (!$asset) {
            return '';
        }
        $reports = array_values($found['reports'][$asset->assetid] ?? []);
        $items = [];
        foreach ($reports as $report) {
            if (!$grader && !$report->visibletoowner) {
                continue;
            }
            $items[] = $this->report_item($asset, $report);
        }
        if (!$items) {
            $state = ['sent' => 'statesent', 'failed' => 'statefailed'][$asset->noticestatus] ?? 'statepending';
            $items[] = ['label' => get_string('pluginname', 'plagiarism_olti'), 'colour' => '', 'title' => '', 'url' => '',
                'result' => get_string($state, 'plagiarism_olti')];
        }
        return $OUTPUT->render_from_template('plagiarism_olti/links', ['items' => $items]);
    }

    /**
     * One report as the template shows it.
     *
     * @param stdClass $asset
     * @param stdClass $report
     * @return array
     */
    private function report_item(stdClass $asset, stdClass $report): array {
        $progress = strtolower($report->processingprogress);
        $known = ['processed', 'processing', 'pendingmanual', 'failed', 'notprocessed', 'notready'];
        $label = $report->title ?: get_string('reporttype', 'plagiarism_olti', s($report->type));
        $result = '';
        if ($report->processingprogress === 'Processed') {
            if ($report->result !== null && $report->result !== '') {
                $result = $report->result;
            } else if ($report->scoregiven !== null && $report->scoremaximum > 0) {
                $result = format_float(100 * $report->scoregiven / $report->scoremaximum, 0) . '%';
            }
        }
        $state = in_array($progress, $known)
            ? get_string('progress_' . $progress, 'plagiarism_olti') : s($report->processingprogress);
        $colour = '';
        if (preg_match('/^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/', (string) $report->indicationcolor, $rgb)) {
            // Dark words on a light colour, white on a dark one (relative luminance, WCAG).
            $luminance = 0;
            foreach ([1 => 0.2126, 2 => 0.7152, 3 => 0.0722] as $i => $weight) {
                $c = hexdec($rgb[$i]) / 255;
                $luminance += $weight * ($c <= 0.03928 ? $c / 12.92 : pow(($c + 0.055) / 1.055, 2.4));
            }
            $colour = 'background-color: ' . $report->indicationcolor . '; color: ' .
                ($luminance > 0.179 ? '#1d2125' : '#ffffff') . ';';
        }
        return [
            'label' => $label,
            'result' => $result !== '' ? $result : $state,
            'colour' => $colour,
            'title' => trim(($report->indicationalt ?? '') . ' ' . ($report->commenttext ?? '')),
            'url' => $report->processingprogress === 'Processed'
                ? urls::view_report($asset->uuid, $report->type)->out(false) : '',
        ];
    }

    /**
     * The assets and reports of a course module, read once per page.
     *
     * @param int $cmid
     * @param int|null $userid
     * @return array
     */
    private function module(int $cmid, ?int $userid): array {
        $key = $cmid . ':' . ($userid ?? 'all');
        if (!isset(self::$loaded[$key])) {
            self::$loaded[$key] = assets::of_module($cmid, $userid);
        }
        return self::$loaded[$key];
    }

    /**
     * Whether the check is on for the course module, read once per page.
     *
     * @param int $cmid
     * @return bool
     */
    private function enabled_cached(int $cmid): bool {
        $key = 'enabled:' . $cmid;
        if (!isset(self::$loaded[$key])) {
            self::$loaded[$key] = config::enabled($cmid);
        }
        return self::$loaded[$key];
    }

    /**
     * The disclosure on the student's submission page: where the paper goes.
     *
     * @param int $cmid
     * @return string
     */
    public function print_disclosure($cmid) {
        global $OUTPUT;
        if (!config::site_ready() || !config::enabled((int) $cmid)) {
            return '';
        }
        $text = trim((string) get_config('plagiarism_olti', 'disclosure'));
        if ($text === '') {
            $text = get_string('disclosuredefault', 'plagiarism_olti');
        }
        $text = format_text($text, FORMAT_MOODLE, ['context' => context_module::instance($cmid)]);
        return $OUTPUT->box($text, 'generalbox boxaligncenter plagiarism_olti_disclosure', 'plagiarism_olti_disclosure');
    }
}

/**
 * The assignment form's switch for the check.
 *
 * @param moodleform_mod $formwrapper
 * @param MoodleQuickForm $mform
 */
function plagiarism_olti_coursemodule_standard_elements($formwrapper, $mform) {
    if (!config::site_ready() || $formwrapper->get_current()->modulename !== 'assign') {
        return;
    }
    $context = $formwrapper->get_context();
    if (!has_capability('plagiarism/olti:enable', $context)) {
        return;
    }
    $mform->addElement('header', 'plagiarism_olti_header', get_string('formheader', 'plagiarism_olti'));
    $mform->addElement('advcheckbox', 'plagiarism_olti_enabled', get_string('formenable', 'plagiarism_olti'));
    $mform->addHelpButton('plagiarism_olti_enabled', 'formenable', 'plagiarism_olti');
    $cm = $formwrapper->get_coursemodule();
    $mform->setDefault('plagiarism_olti_enabled', $cm ? (int) config::enabled((int) $cm->id)
        : (int) get_config('plagiarism_olti', 'defaulton'));
    if ($cm) {
        // The check's settings are the tool's: opened in a new window through a settings launch, as Canvas opens them.
        $link = html_writer::link(new moodle_url('/plagiarism/olti/launch.php', ['settings' => $cm->id]),
            get_string('formsettingslink', 'plagiarism_olti'), ['target' => '_blank', 'rel' => 'noopener',
            'class' => 'plagiarism_olti_settings']);
        $mform->addElement('static', 'plagiarism_olti_settings', get_string('formsettings', 'plagiarism_olti'), $link);
    }
}

/**
 * Keeps the form's switch.
 *
 * @param stdClass $data the module's form data
 * @param stdClass $course
 * @return stdClass
 */
function plagiarism_olti_coursemodule_edit_post_actions($data, $course) {
    if (($data->modulename ?? '') !== 'assign' || !isset($data->plagiarism_olti_enabled) || !config::site_ready()) {
        return $data;
    }
    $context = context_module::instance($data->coursemodule);
    if (has_capability('plagiarism/olti:enable', $context)) {
        config::set_enabled((int) $data->coursemodule, !empty($data->plagiarism_olti_enabled));
    }
    return $data;
}

/**
 * The plugin's files: only the tool reads the snapshots (through ltiservice_olti), so none is served here.
 *
 * @return bool
 */
function plagiarism_olti_pluginfile() {
    return false;
}
