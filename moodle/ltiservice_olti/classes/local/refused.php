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
 * A request the Asset Processor services refuse: its HTTP status and the sentence the tool's log shows.
 *
 * @package    ltiservice_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

namespace ltiservice_olti\local;

/**
 * Thrown by the resources' checks; execute() turns it into the response's status and reason.
 */
class refused extends \Exception {
    /**
     * A refusal.
     *
     * @param int $status the HTTP status (400, 401, 403, 404, 409, 413)
     * @param string $reason a sentence saying why, with no secret in it
     */
    public function __construct(int $status, string $reason) {
        parent::__construct($reason, $status);
    }

    /**
     * Writes the refusal into mod_lti's response.
     *
     * @param \mod_lti\local\ltiservice\response $response the response of this request
     */
    public function answer($response): void {
        $response->set_code($this->getCode());
        $response->set_reason($this->getMessage());
        $response->set_content_type('application/json');
        $response->set_body(json_encode(['status' => $this->getCode(), 'reason' => $this->getMessage()],
            JSON_UNESCAPED_SLASHES));
    }
}
