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
 * The Asset Service's asset: GET /{courseid}/olti/assets/{uuid} streams the copy plagiarism_olti took of a submitted
 * file or online text (component plagiarism_olti, file area assets), never read whole into memory.
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
 * One submitted file, as the notice's assetservice claim named it.
 */
class asset extends resource_base {

    /**
     * The resource's address and what it answers.
     *
     * @param olti $service the service it belongs to
     */
    public function __construct($service) {
        parent::__construct($service);
        $this->id = 'Asset.item';
        $this->template = '/{course_id}/olti/assets/{asset_id}';
        $this->formats[] = 'application/octet-stream';
        $this->formats[] = '*/*';
        $this->methods[] = self::HTTP_GET;
    }

    /**
     * Streams the asset, or answers why not.
     *
     * @param \mod_lti\local\ltiservice\response $response the response of this request
     */
    public function execute($response) {
        $params = $this->parse_template();
        try {
            $course = $this->get_service()->authorise(olti::SCOPE_ASSET_READ, (string) $params['course_id']);
            $asset = olti::asset_in_course((string) $params['asset_id'], (int) $course->id);
            $file = get_file_storage()->get_file_by_id((int) $asset->fileid);
            if (!$file || $file->get_component() !== 'plagiarism_olti' || $file->get_filearea() !== 'assets' ||
                    (int) $file->get_contextid() !== (int) $asset->contextid) {
                throw new refused(404, 'The copy of this asset is no longer kept.');
            }
        } catch (refused $refusal) {
            $refusal->answer($response);
            return;
        }
        // Streams from the file store (readfile, X-Sendfile where configured) and ends the request.
        send_stored_file($file, 0, 0, true, ['filename' => $asset->filename, 'dontdie' => false]);
    }
}
