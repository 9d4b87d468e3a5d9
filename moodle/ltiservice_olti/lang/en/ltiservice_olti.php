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
 * English strings of ltiservice_olti.
 *
 * @package    ltiservice_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

$string['ltiservice_olti'] = 'Asset Processor services (originality check)';
$string['pluginname'] = 'Asset Processor services (originality check)';
$string['privacy:metadata'] = 'The Asset Processor services store no personal data of their own: they serve the copies and keep the reports that the originality check plagiarism plugin (plagiarism_olti) holds.';
