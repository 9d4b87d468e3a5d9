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
 * The Asset Report Service: POST /{courseid}/olti/reports/{submissionid} keeps the tool's latest report of one type
 * for one asset of that submission in plagiarism_olti_report, where plagiarism_olti shows it. A report whose
 * timestamp is not later than the kept one is refused with 409, as the specification asks.
 * Body: https://www.imsglobal.org/spec/lti-ap/v1p0 (Asset Report Service); the tool's side:
 * src/assetprocessor/asset-report.ts.
 *
 * @package    ltiservice_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace ltiservice_olti\local\resources;

use ltiservice_olti\local\refused;
use ltiservice_olti\local\service\olti;
use mod_lti\local\ltiservice\resource_base;

defined('MOODLE_INTERNAL') || die();

/**
 * The reports of one submission's assets.
 */
class report extends resource_base {

    /** The largest report body taken. */
    const MAX_BYTES = 65536;
    /** The processing states of the specification. */
    const PROGRESS = ['Processed', 'Processing', 'PendingManual', 'Failed', 'NotProcessed', 'NotReady'];

    /**
     * The resource's address and what it takes.
     *
     * @param olti $service the service it belongs to
     */
    public function __construct($service) {
        parent::__construct($service);
        $this->id = 'AssetReport.collection';
        $this->template = '/{course_id}/olti/reports/{submission_id}';
        $this->formats[] = 'application/json';
        $this->methods[] = self::HTTP_POST;
    }

    /**
     * Keeps the posted report, or answers why not.
     *
     * @param \mod_lti\local\ltiservice\response $response the response of this request
     */
    public function execute($response) {
        $params = $this->parse_template();
        try {
            $course = $this->get_service()->authorise(olti::SCOPE_REPORT, (string) $params['course_id']);
            $body = (string) $response->get_request_data();
            if (strlen($body) > self::MAX_BYTES) {
                throw new refused(413, 'A report may be at most ' . self::MAX_BYTES . ' bytes.');
            }
            $report = self::read($body);
            $asset = olti::asset_in_course($report->assetuuid, (int) $course->id);
            if ((string) $asset->submissionid !== (string) $params['submission_id']) {
                throw new refused(404, 'No such asset in this submission.');
            }
            $kept = self::keep($asset, $report);
        } catch (refused $refusal) {
            $refusal->answer($response);
            return;
        }
        $response->set_code(200);
        $response->set_content_type('application/json');
        $response->set_body(json_encode([
            'assetId' => $asset->uuid,
            'type' => $kept->type,
            'timestamp' => $kept->timestamp,
            'processingProgress' => $kept->processingprogress,
        ], JSON_UNESCAPED_SLASHES));
    }

    /**
     * A string field of the report, or null when absent; refused when it is no string or too long.
     *
     * @param array $json the decoded body
     * @param string $name the field
     * @param int $max its most characters
     * @return string|null
     * @throws refused
     */
    private static function text(array $json, string $name, int $max): ?string {
        if (!array_key_exists($name, $json) || $json[$name] === null) {
            return null;
        }
        if (!is_string($json[$name]) || \core_text::strlen($json[$name]) > $max || strpos($json[$name], "\0") !== false) {
            throw new refused(400, "The report's {$name} must be a text of at most {$max} characters.");
        }
        return $json[$name];
    }

    /**
     * A number field of the report, or null when absent.
     *
     * @param array $json the decoded body
     * @param string $name the field
     * @return float|null
     * @throws refused
     */
    private static function number(array $json, string $name): ?float {
        if (!array_key_exists($name, $json) || $json[$name] === null) {
            return null;
        }
        if (!is_int($json[$name]) && !is_float($json[$name]) || $json[$name] < 0 || $json[$name] > 99999999) {
            throw new refused(400, "The report's {$name} must be a number from 0 to 99999999.");
        }
        return (float) $json[$name];
    }

    /**
     * The report as plagiarism_olti_report keeps it; refused (400) when it lacks a required field or one is unusable.
     *
     * @param string $body the request body
     * @return \stdClass the row to keep, less its id and assetid, with assetuuid the posted assetId
     * @throws refused
     */
    public static function read(string $body): \stdClass {
        $json = json_decode($body, true, 16);
        if (!is_array($json) || array_is_list($json)) {
            throw new refused(400, 'A report must be a JSON object.');
        }
        $row = new \stdClass();
        $required = ['assetId' => ['assetuuid', 64], 'type' => ['type', 100], 'timestamp' => ['timestamp', 64],
            'processingProgress' => ['processingprogress', 30]];
        foreach ($required as $name => [$field, $max]) {
            $value = self::text($json, $name, $max);
            if ($value === null || $value === '') {
                throw new refused(400, "A report must name its {$name}.");
            }
            $row->{$field} = $value;
        }
        $iso = '/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/';
        try {
            $when = preg_match($iso, $row->timestamp) ? new \DateTimeImmutable($row->timestamp) : null;
        } catch (\Exception $e) {
            $when = null;
        }
        if (!$when) {
            throw new refused(400, "The report's timestamp must be an ISO 8601 date and time with its offset.");
        }
        $row->timestampms = (int) $when->format('Uv');
        if (!in_array($row->processingprogress, self::PROGRESS, true)) {
            throw new refused(400, "The report's processingProgress must be one of " . implode(', ', self::PROGRESS) . '.');
        }
        $row->title = self::text($json, 'title', 255);
        $row->result = self::text($json, 'result', 64);
        $row->scoregiven = self::number($json, 'scoreGiven');
        $row->scoremaximum = self::number($json, 'scoreMaximum');
        $row->indicationcolor = self::text($json, 'indicationColor', 16);
        if ($row->indicationcolor !== null && !preg_match('/^#[0-9A-Fa-f]{6}$/', $row->indicationcolor)) {
            throw new refused(400, "The report's indicationColor must be a colour as #RRGGBB.");
        }
        $row->indicationalt = self::text($json, 'indicationAlt', 255);
        $row->commenttext = self::text($json, 'comment', 10000);
        $row->errorcode = self::text($json, 'errorCode', 100);
        $priority = $json['priority'] ?? 0;
        if (!is_int($priority) || $priority < 0 || $priority > 5) {
            throw new refused(400, "The report's priority must be a whole number from 0 to 5.");
        }
        $row->priority = $priority;
        $visible = $json['visibleToOwner'] ?? false;
        if (!is_bool($visible)) {
            throw new refused(400, "The report's visibleToOwner must be true or false.");
        }
        $row->visibletoowner = $visible ? 1 : 0;
        return $row;
    }

    /**
     * Keeps the report as the latest of its type for the asset, or refuses it (409) when the kept one is as recent or
     * more. The update is conditional on the older timestamp, so two posts at once keep the later whatever their order.
     * The same report posted again (its answer lost) is answered as the first was.
     *
     * @param \stdClass $asset the plagiarism_olti_asset record
     * @param \stdClass $report what read() made of the body
     * @return \stdClass the kept row
     * @throws refused
     */
    public static function keep(\stdClass $asset, \stdClass $report): \stdClass {
        global $DB;
        $row = clone $report;
        unset($row->assetuuid);
        $row->assetid = (int) $asset->id;
        $row->timemodified = time();
        $fields = ['timestamp', 'timestampms', 'processingprogress', 'result', 'scoregiven', 'scoremaximum',
            'indicationcolor', 'indicationalt', 'commenttext', 'errorcode', 'priority', 'visibletoowner', 'title',
            'timemodified'];
        $sets = implode(', ', array_map(fn($field) => "{$field} = :{$field}", $fields));
        $values = ['assetid' => $row->assetid, 'type' => $row->type, 'newer' => $row->timestampms];
        foreach ($fields as $field) {
            $values[$field] = $row->{$field};
        }
        $DB->execute("UPDATE {plagiarism_olti_report} SET {$sets}
                       WHERE assetid = :assetid AND type = :type AND timestampms < :newer", $values);
        $kept = $DB->get_record('plagiarism_olti_report', ['assetid' => $row->assetid, 'type' => $row->type]);
        if (!$kept) {
            try {
                $row->id = $DB->insert_record('plagiarism_olti_report', $row);
                return $row;
            } catch (\dml_write_exception $e) {
                $kept = $DB->get_record('plagiarism_olti_report', ['assetid' => $row->assetid, 'type' => $row->type]);
            }
        }
        $same = $kept && (int) $kept->timestampms === $row->timestampms;
        foreach ($fields as $field) {
            if ($field === 'timemodified' || !$same) {
                continue;
            }
            $before = $kept->{$field};
            $now = $row->{$field};
            $same = is_float($now) ? ($before !== null && abs((float) $before - $now) < 0.005) :
                ((string) $before === (string) $now && ($before === null) === ($now === null));
        }
        if (!$same) {
            throw new refused(409, 'A report of this type with the same or a later timestamp is kept already.');
        }
        return $kept;
    }
}
