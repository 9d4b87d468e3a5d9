<?php
// What test/moodle/services.test.ts needs in the real Moodle, made and undone through Moodle's own API, run as
//   MOODLE_DIR=... php services-fixture.php setup <public key PEM file>   -> JSON of what it made
//   MOODLE_DIR=... php services-fixture.php choose <typeid>               -> sets plagiarism_olti/typeid, prints the old
//   MOODLE_DIR=... php services-fixture.php reports <asset uuid>          -> JSON of the kept reports of that asset
//   MOODLE_DIR=... php services-fixture.php large <JSON of setup> <MB>    -> a file of that size beside asset A
//   MOODLE_DIR=... php services-fixture.php teardown <JSON of setup>      -> removes what setup made
// setup makes two courses with an assignment each, two LTI 1.3 tool types keyed with the given public key (one for
// the check, one other), and in each course one asset as plagiarism_olti keeps it: a row of plagiarism_olti_asset and
// its copy in the plugin's file area (component plagiarism_olti, file area assets, item id = the row's id).

define('CLI_SCRIPT', true);

$dir = getenv('MOODLE_DIR');
if ($dir === false || $dir === '') {
    fwrite(STDERR, "MOODLE_DIR is not set\n");
    exit(1);
}
require($dir . '/config.php');
require_once($CFG->libdir . '/clilib.php');
require_once($CFG->dirroot . '/course/lib.php');
require_once($CFG->dirroot . '/mod/lti/locallib.php');
require_once($CFG->libdir . '/testing/generator/lib.php');

global $DB;
\core\session\manager::set_user(get_admin());

/**
 * An LTI 1.3 tool type keyed with a public key, as an administrator configures one by hand.
 *
 * @param string $name the type's name
 * @param string $publickey PEM
 * @return stdClass the lti_types row
 */
function fixture_type(string $name, string $publickey): stdClass {
    global $DB;
    $config = (object) [
        'lti_typename' => $name,
        'lti_toolurl' => 'http://localhost:3000/lti/launch',
        'lti_ltiversion' => LTI_VERSION_1P3,
        'lti_keytype' => LTI_RSA_KEY,
        'lti_publickey' => $publickey,
        'lti_publickeyset' => '',
        'lti_initiatelogin' => 'http://localhost:3000/lti/login',
        'lti_redirectionuris' => 'http://localhost:3000/lti/launch',
        'lti_coursevisible' => LTI_COURSEVISIBLE_PRECONFIGURED,
        'lti_launchcontainer' => LTI_LAUNCH_CONTAINER_EMBED_NO_BLOCKS,
        'lti_organizationid_default' => LTI_DEFAULT_ORGID_SITEID,
        // Grade sync, so that this type can have a token of another scope than the Asset Processor's.
        'ltiservice_gradesynchronization' => 2,
    ];
    $id = lti_add_type((object) ['state' => LTI_TOOL_STATE_CONFIGURED], $config);
    return $DB->get_record('lti_types', ['id' => $id], '*', MUST_EXIST);
}

/**
 * One asset of a fresh assignment's submission, kept as plagiarism_olti keeps it.
 *
 * @param testing_data_generator $gen
 * @param stdClass $course
 * @param stdClass $student
 * @param string $content the copy's bytes
 * @return array what the test needs of it
 */
function fixture_asset(testing_data_generator $gen, stdClass $course, stdClass $student, string $content): array {
    global $DB;
    $assign = $gen->create_module('assign', ['course' => $course->id, 'name' => 'Essay', 'assignsubmission_file_enabled' => 1]);
    $context = context_module::instance($assign->cmid);
    $submissionid = $DB->insert_record('assign_submission', (object) [
        'assignment' => $assign->id, 'userid' => $student->id, 'timecreated' => time(), 'timemodified' => time(),
        'status' => 'submitted', 'groupid' => 0, 'attemptnumber' => 0, 'latest' => 1,
    ]);
    $row = (object) [
        'uuid' => \core\uuid::generate(), 'cmid' => $assign->cmid, 'courseid' => $course->id,
        'contextid' => $context->id, 'submissionid' => $submissionid, 'attempt' => 0, 'userid' => $student->id,
        'groupid' => 0, 'kind' => 'file', 'sourcehash' => sha1($content), 'filename' => 'essay.pdf',
        'mimetype' => 'application/pdf', 'filesize' => strlen($content), 'sha256' => hash('sha256', $content),
        'fileid' => 0, 'anonymous' => 0, 'noticestatus' => 'sent', 'noticeattempts' => 1, 'timenoticed' => time(),
        'timecreated' => time(),
    ];
    $row->id = $DB->insert_record('plagiarism_olti_asset', $row);
    $file = get_file_storage()->create_file_from_string([
        'contextid' => $context->id, 'component' => 'plagiarism_olti', 'filearea' => 'assets', 'itemid' => $row->id,
        'filepath' => '/', 'filename' => 'essay.pdf', 'mimetype' => 'application/pdf',
    ], $content);
    $DB->set_field('plagiarism_olti_asset', 'fileid', $file->get_id(), ['id' => $row->id]);
    return ['uuid' => $row->uuid, 'submissionid' => (int) $submissionid, 'courseid' => (int) $course->id,
        'size' => strlen($content), 'sha256' => $row->sha256];
}

$command = $argv[1] ?? '';
switch ($command) {
    case 'setup':
        $publickey = file_get_contents($argv[2]);
        $gen = new testing_data_generator();
        $tag = substr(md5(random_bytes(8)), 0, 8);
        $category = $DB->get_field_sql('SELECT MIN(id) FROM {course_categories}');
        $student = $gen->create_user(['username' => "oltisvc{$tag}"]);
        $made = ['tag' => $tag, 'studentid' => (int) $student->id];
        foreach (['a', 'b'] as $which) {
            $course = $gen->create_course(['shortname' => "OLTISVC-{$which}-{$tag}", 'category' => $category]);
            $gen->enrol_user($student->id, $course->id, 'student');
            // A file of a few megabytes in four kinds of bytes, so that a truncated or re-encoded copy shows.
            $content = '%PDF-1.4' . "\n" . str_repeat(random_bytes(4096), 700 + ($which === 'a' ? 1 : 2));
            $made['asset' . strtoupper($which)] = fixture_asset($gen, $course, $student, $content);
        }
        $chosen = fixture_type("Originality check (services test {$tag})", $publickey);
        $other = fixture_type("Another tool (services test {$tag})", $publickey);
        $made['chosen'] = ['id' => (int) $chosen->id, 'clientid' => $chosen->clientid];
        $made['other'] = ['id' => (int) $other->id, 'clientid' => $other->clientid];
        $made['wwwroot'] = $CFG->wwwroot;
        echo json_encode($made, JSON_UNESCAPED_SLASHES) . "\n";
        break;
    case 'choose':
        $old = get_config('plagiarism_olti', 'typeid');
        set_config('typeid', (int) $argv[2], 'plagiarism_olti');
        echo json_encode(['old' => $old === false ? null : $old]) . "\n";
        break;
    case 'reports':
        $asset = $DB->get_record('plagiarism_olti_asset', ['uuid' => $argv[2]], '*', MUST_EXIST);
        echo json_encode(array_values($DB->get_records('plagiarism_olti_report', ['assetid' => $asset->id], 'type')),
            JSON_UNESCAPED_SLASHES) . "\n";
        break;
    case 'large':
        // A copy larger than PHP's memory limit, written and hashed a chunk at a time.
        $made = json_decode($argv[2], true);
        $near = $DB->get_record('plagiarism_olti_asset', ['uuid' => $made['assetA']['uuid']], '*', MUST_EXIST);
        $path = make_request_directory() . '/large.pdf';
        $out = fopen($path, 'wb');
        $chunk = '%PDF-1.4' . "\n" . random_bytes(1048576 - 9);
        for ($i = 0; $i < (int) $argv[3]; $i++) {
            fwrite($out, $i === 0 ? $chunk : random_bytes(1048576));
        }
        fclose($out);
        $row = clone $near;
        unset($row->id);
        $row->uuid = \core\uuid::generate();
        $row->sourcehash = sha1_file($path);
        $row->sha256 = hash_file('sha256', $path);
        $row->filesize = filesize($path);
        $row->filename = 'large.pdf';
        $row->id = $DB->insert_record('plagiarism_olti_asset', $row);
        $file = get_file_storage()->create_file_from_pathname([
            'contextid' => $row->contextid, 'component' => 'plagiarism_olti', 'filearea' => 'assets',
            'itemid' => $row->id, 'filepath' => '/', 'filename' => 'large.pdf', 'mimetype' => 'application/pdf',
        ], $path);
        $DB->set_field('plagiarism_olti_asset', 'fileid', $file->get_id(), ['id' => $row->id]);
        echo json_encode(['uuid' => $row->uuid, 'size' => (int) $row->filesize, 'sha256' => $row->sha256,
            'memorylimit' => ini_get('memory_limit')]) . "\n";
        break;
    case 'teardown':
        $made = json_decode($argv[2], true);
        foreach (['assetA', 'assetB'] as $name) {
            foreach ($DB->get_records('plagiarism_olti_asset', ['courseid' => $made[$name]['courseid']]) as $asset) {
                $DB->delete_records('plagiarism_olti_report', ['assetid' => $asset->id]);
                get_file_storage()->delete_area_files($asset->contextid, 'plagiarism_olti', 'assets', $asset->id);
                $DB->delete_records('plagiarism_olti_asset', ['id' => $asset->id]);
            }
            delete_course($made[$name]['courseid'], false);
        }
        foreach (['chosen', 'other'] as $name) {
            $DB->delete_records('lti_access_tokens', ['typeid' => $made[$name]['id']]);
            lti_delete_type($made[$name]['id']);
        }
        delete_user($DB->get_record('user', ['id' => $made['studentid']]));
        echo "{}\n";
        break;
    default:
        fwrite(STDERR, "usage: services-fixture.php setup|choose|reports|teardown ...\n");
        exit(1);
}
