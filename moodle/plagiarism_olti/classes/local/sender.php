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
 * Delivery of notices to the tool through Moodle's HTTP client.
 *
 * @package    plagiarism_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace plagiarism_olti\local;

/**
 * Sends one submission attempt's notice to the tool's notice handler, as the Platform Notification Service posts
 * them: {"notices":[{"jwt":"..."}]}. Through \core\http_client, so Moodle's proxy and blocked-host rules apply.
 */
class sender {
    /** @var int Seconds the tool has to answer. */
    const TIMEOUT = 30;

    /**
     * Sends the notice of the assets of one submission attempt and marks them sent. Throws when the tool does not
     * take it, so that the ad hoc task is tried again later.
     *
     * @param \stdClass[] $assets rows of one submission and attempt
     * @param \core\http_client|null $client
     */
    public static function send(array $assets, ?\core\http_client $client = null): void {
        global $DB;
        $tool = self::tool();
        $ids = array_keys($assets);
        [$in, $params] = $DB->get_in_or_equal($ids);
        $DB->execute("UPDATE {plagiarism_olti_asset} SET noticeattempts = noticeattempts + 1 WHERE id $in", $params);
        try {
            self::post($tool, notice::claims($tool, reset($assets), $assets), $client);
        } catch (refused $e) {
            $DB->execute("UPDATE {plagiarism_olti_asset} SET noticestatus = 'failed' WHERE id $in", $params);
            throw $e;
        }
        $DB->execute("UPDATE {plagiarism_olti_asset} SET noticestatus = 'sent', timenoticed = ? WHERE id $in",
            array_merge([time()], $params));
    }

    /**
     * Tells the tool that a submission attempt's files are gone: its notice with no assets.
     *
     * @param \stdClass $attempt courseid, cmid, submissionid, attempt, userid, groupid, anonymous
     * @param \core\http_client|null $client
     */
    public static function send_removal(\stdClass $attempt, ?\core\http_client $client = null): void {
        $tool = self::tool();
        self::post($tool, notice::claims($tool, $attempt, []), $client);
    }

    /**
     * The tool type, or an exception that says none is chosen.
     *
     * @return \stdClass
     */
    private static function tool(): \stdClass {
        $tool = config::tool();
        if (!$tool) {
            throw new \moodle_exception('notoolconfigured', 'plagiarism_olti');
        }
        return $tool;
    }

    /**
     * Signs the claims and posts them; throws when the tool does not take them.
     *
     * @param \stdClass $tool
     * @param array $claims
     * @param \core\http_client|null $client
     */
    private static function post(\stdClass $tool, array $claims, ?\core\http_client $client): void {
        $jwt = notice::sign($claims);
        $client = $client ?? new \core\http_client();
        $url = config::notice_url($tool);
        try {
            $response = $client->post($url, [
                'json' => ['notices' => [['jwt' => $jwt]]],
                'headers' => ['Accept' => 'application/json'],
                'timeout' => self::TIMEOUT,
                'connect_timeout' => 10,
                'http_errors' => false,
            ]);
        } catch (\Throwable $e) {
            throw new \moodle_exception('noticenotsent', 'plagiarism_olti', '', $url, $e->getMessage());
        }
        $status = $response->getStatusCode();
        if ($status < 200 || $status >= 300) {
            // The tool says why in one sentence ({"error": "..."}); at most 1000 characters of it are logged.
            $body = substr((string) $response->getBody()->read(4096), 0, 1000);
            throw new refused((object) ['status' => $status, 'url' => $url], $body);
        }
    }
}
