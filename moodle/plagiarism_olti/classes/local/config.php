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
 * Where the plugin's settings live: the site's tool type, and each assignment's switch.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\local;

/**
 * The plugin's settings: the site's tool type (the tool the papers go to) and each assignment's switch.
 */
class config {
    /** @var string The notice handler's path on the tool (its fixed public path). */
    const NOTICE_PATH = '/asset-processor/notices';

    /**
     * Whether the plugin is on for the site and a tool type is chosen.
     *
     * @return bool
     */
    public static function site_ready(): bool {
        global $CFG;
        return !empty($CFG->enableplagiarism) && get_config('plagiarism_olti', 'enabled')
            && self::typeid() > 0;
    }

    /**
     * The LTI tool type (lti_types.id) the plugin sends papers to, 0 when none is chosen.
     *
     * @return int
     */
    public static function typeid(): int {
        return (int) get_config('plagiarism_olti', 'typeid');
    }

    /**
     * The tool type's LTI 1.3 configuration (lti_get_type_type_config), or null when the type is gone.
     *
     * @return \stdClass|null
     */
    public static function tool(): ?\stdClass {
        global $CFG, $DB;
        require_once($CFG->dirroot . '/mod/lti/locallib.php');
        $typeid = self::typeid();
        if (!$typeid || !$DB->record_exists('lti_types', ['id' => $typeid])) {
            return null;
        }
        $config = lti_get_type_type_config($typeid);
        $config->typeid = $typeid;
        return $config;
    }

    /**
     * The tool's notice handler: the setting, or the notice path on the origin of the tool type's launch address.
     *
     * @param \stdClass $tool the tool type's configuration
     * @return string
     */
    public static function notice_url(\stdClass $tool): string {
        $set = trim((string) get_config('plagiarism_olti', 'noticeurl'));
        if ($set !== '') {
            return $set;
        }
        $parts = parse_url(trim($tool->lti_toolurl));
        $origin = $parts['scheme'] . '://' . $parts['host'] . (isset($parts['port']) ? ':' . $parts['port'] : '');
        return $origin . self::NOTICE_PATH;
    }

    /**
     * Whether the check is on for this course module.
     *
     * @param int $cmid
     * @return bool
     */
    public static function enabled(int $cmid): bool {
        global $DB;
        return (bool) $DB->get_field('plagiarism_olti_config', 'enabled', ['cmid' => $cmid]);
    }

    /**
     * Switches the check on or off for a course module.
     *
     * @param int $cmid
     * @param bool $enabled
     */
    public static function set_enabled(int $cmid, bool $enabled): void {
        global $DB;
        $row = $DB->get_record('plagiarism_olti_config', ['cmid' => $cmid]);
        if ($row) {
            $row->enabled = (int) $enabled;
            $row->timemodified = time();
            $DB->update_record('plagiarism_olti_config', $row);
        } else {
            $DB->insert_record('plagiarism_olti_config',
                (object) ['cmid' => $cmid, 'enabled' => (int) $enabled, 'timemodified' => time()]);
        }
    }

    /**
     * Hours after a notice without any report from the tool before it is sent again.
     *
     * @return int
     */
    public static function resend_after_hours(): int {
        $hours = (int) get_config('plagiarism_olti', 'resendafter');
        return $hours > 0 ? $hours : 2;
    }
}
