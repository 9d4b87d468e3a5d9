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
 * Version of the Asset Processor services (asset download, asset reports) behind mod_lti's token endpoint.
 *
 * @package    ltiservice_olti
 * @copyright  originality-lti
 * @license    https://www.gnu.org/copyleft/gpl.html GNU GPL v3 or later
 */

defined('MOODLE_INTERNAL') || die();

$plugin->component = 'ltiservice_olti';
$plugin->version   = 2026120200;
$plugin->release   = '0.1.0';
$plugin->requires  = 2024100100; // Moodle 4.5.
$plugin->supported = [405, 503];
$plugin->maturity  = MATURITY_BETA;
$plugin->dependencies = ['mod_lti' => 2024100700, 'plagiarism_olti' => 2026120200];
