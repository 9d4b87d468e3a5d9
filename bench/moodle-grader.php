<?php
// The grader's page of a Moodle assignment with N file submissions, each checked (a plagiarism_olti asset and its
// Processed report), and the database reads of rendering it as the teacher: with the check on, and with it off.
// Each render runs in a PHP process of its own (the plugin keeps what it read for the rest of a request), once to
// warm Moodle's caches and once measured. Prints one JSON line: {"readsOn", "readsOff", "linkCalls", "students"}.
//   MOODLE_DIR=... php bench/moodle-grader.php 200
// Internally: `seed N` (prints what it made), `render CMID TEACHERID` (prints reads and badges), `switch CMID 0|1`,
// `teardown COURSEID USERIDS`. It holds /tmp/moodle-olti-config.lock while the plugin's site settings are changed.

define('CLI_SCRIPT', true);

$dir = getenv('MOODLE_DIR');
if ($dir === false || $dir === '') {
    fwrite(STDERR, "MOODLE_DIR is not set\n");
    exit(1);
}
require($dir . '/config.php');
require_once($CFG->libdir . '/clilib.php');
require_once($CFG->dirroot . '/course/lib.php');
require_once($CFG->dirroot . '/mod/assign/locallib.php');
require_once($CFG->libdir . '/testing/generator/lib.php');

global $DB;

/**
 * Runs this script again with other arguments, and returns its last line.
 *
 * @param array $args
 * @return string
 */
function bench_self(array $args): string {
    $command = escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__FILE__) . ' ' .
        implode(' ', array_map('escapeshellarg', $args));
    $output = [];
    exec($command, $output, $code);
    if ($code !== 0) {
        fwrite(STDERR, implode("\n", $output) . "\n");
        exit($code);
    }
    // The page's own output ends with its footer, after the JSON line.
    $json = array_values(array_filter($output, fn($line) => substr($line, 0, 1) === '{'));
    return (string) end($json);
}

$command = $argv[1] ?? '';
switch ($command) {
    case 'seed':
        \core\session\manager::set_user(get_admin());
        $students = (int) $argv[2];
        $gen = new testing_data_generator();
        $tag = substr(md5(random_bytes(8)), 0, 8);
        $course = $gen->create_course(['shortname' => "OLTIBENCH-{$tag}", 'fullname' => "Deadline class {$tag}"]);
        $teacher = $gen->create_user(['username' => "oltibenchteacher{$tag}"]);
        $gen->enrol_user($teacher->id, $course->id, 'editingteacher');
        $module = $gen->create_module('assign', ['course' => $course->id, 'name' => 'Essay at the deadline',
            'assignsubmission_file_enabled' => 1, 'assignsubmission_file_maxfiles' => 1,
            'assignsubmission_file_maxsizebytes' => 1048576, 'submissiondrafts' => 0]);
        $cm = get_coursemodule_from_id('assign', $module->cmid, 0, false, MUST_EXIST);
        $context = context_module::instance($cm->id);
        $DB->insert_record('plagiarism_olti_config', (object) ['cmid' => $cm->id, 'enabled' => 1,
            'timemodified' => time()]);
        $assign = new assign($context, $cm, $course);
        $fs = get_file_storage();
        $users = [(int) $teacher->id];
        for ($i = 1; $i <= $students; $i++) {
            $student = $gen->create_user(['username' => "oltibench{$tag}s{$i}"]);
            $users[] = (int) $student->id;
            $gen->enrol_user($student->id, $course->id, 'student');
            $submission = $assign->get_user_submission($student->id, true);
            $submission->status = ASSIGN_SUBMISSION_STATUS_SUBMITTED;
            $DB->update_record('assign_submission', $submission);
            $content = "Essay {$i} of the deadline class: " . str_repeat("words of student {$i} ", 200);
            $file = $fs->create_file_from_string(['contextid' => $context->id, 'component' => 'assignsubmission_file',
                'filearea' => 'submission_files', 'itemid' => $submission->id, 'filepath' => '/',
                'filename' => "essay-{$i}.txt"], $content);
            $DB->insert_record('assignsubmission_file', (object) ['assignment' => $assign->get_instance()->id,
                'submission' => $submission->id, 'numfiles' => 1]);
            $assetid = $DB->insert_record('plagiarism_olti_asset', (object) [
                'uuid' => \core\uuid::generate(), 'cmid' => $cm->id, 'courseid' => $course->id,
                'contextid' => $context->id, 'submissionid' => $submission->id, 'attempt' => 0,
                'userid' => $student->id, 'groupid' => 0, 'kind' => 'file', 'sourcehash' => $file->get_contenthash(),
                'filename' => $file->get_filename(), 'mimetype' => 'text/plain', 'filesize' => $file->get_filesize(),
                'sha256' => hash('sha256', $content), 'fileid' => 0, 'anonymous' => 0, 'noticestatus' => 'sent',
                'noticeattempts' => 1, 'timenoticed' => time(), 'timecreated' => time()]);
            $DB->insert_record('plagiarism_olti_report', (object) ['assetid' => $assetid, 'type' => 'originality',
                'timestamp' => gmdate('Y-m-d\TH:i:s\Z'), 'timestampms' => time() * 1000,
                'processingprogress' => 'Processed', 'result' => ($i % 97) . '%', 'scoregiven' => $i % 97,
                'scoremaximum' => 100, 'indicationcolor' => '#E67E22', 'indicationalt' => 'Similarity',
                'commenttext' => 'Scored.', 'errorcode' => null, 'priority' => 1, 'visibletoowner' => 1,
                'title' => 'Originality', 'timemodified' => time()]);
        }
        // Every submission on one page of the grader (the teacher's choice "All").
        set_user_preference('assign_perpage', -1, $teacher->id);
        echo json_encode(['courseid' => (int) $course->id, 'cmid' => (int) $cm->id, 'teacherid' => (int) $teacher->id,
            'users' => $users]) . "\n";
        break;
    case 'render':
        global $PAGE;
        $cm = get_coursemodule_from_id('assign', (int) $argv[2], 0, false, MUST_EXIST);
        $course = get_course($cm->course);
        $context = context_module::instance($cm->id);
        \core\session\manager::set_user($DB->get_record('user', ['id' => (int) $argv[3]], '*', MUST_EXIST));
        $PAGE->set_url('/mod/assign/view.php', ['id' => $cm->id, 'action' => 'grading']);
        $PAGE->set_context($context);
        $PAGE->set_cm($cm, $course);
        $assign = new assign($context, $cm, $course);
        $before = $DB->perf_get_reads();
        $html = $assign->view('grading');
        $reads = $DB->perf_get_reads() - $before;
        echo json_encode(['reads' => $reads, 'badges' => substr_count($html, 'class="plagiarism_olti_links"')]) . "\n";
        break;
    case 'switch':
        $DB->set_field('plagiarism_olti_config', 'enabled', (int) $argv[3], ['cmid' => (int) $argv[2]]);
        echo "{}\n";
        break;
    case 'teardown':
        \core\session\manager::set_user(get_admin());
        delete_course((int) $argv[2], false);
        foreach (json_decode($argv[3], true) as $userid) {
            delete_user($DB->get_record('user', ['id' => $userid]));
        }
        echo "{}\n";
        break;
    default:
        $students = (int) ($argv[1] ?? 200);
        // The site's settings are changed (and the lock taken) only where the plugin is not ready already.
        $ready = !empty($CFG->enableplagiarism) && get_config('plagiarism_olti', 'enabled')
            && (int) get_config('plagiarism_olti', 'typeid') > 0;
        $lock = fopen('/tmp/moodle-olti-config.lock', 'c');
        if (!$ready) {
            flock($lock, LOCK_EX);
        }
        $saved = ['enableplagiarism' => $CFG->enableplagiarism ?? 0,
            'enabled' => get_config('plagiarism_olti', 'enabled'), 'typeid' => get_config('plagiarism_olti', 'typeid')];
        // The plugin shows reports only on a site where it is ready: switched on, with a tool type chosen.
        set_config('enableplagiarism', 1);
        set_config('enabled', 1, 'plagiarism_olti');
        if ((int) $saved['typeid'] <= 0) {
            set_config('typeid', (int) $DB->get_field_sql('SELECT MIN(id) FROM {lti_types}'), 'plagiarism_olti');
        }
        $made = json_decode(bench_self(['seed', (string) $students]), true);
        try {
            $on = [];
            $off = [];
            foreach ([1, 2] as $round) {
                $on = json_decode(bench_self(['render', (string) $made['cmid'], (string) $made['teacherid']]), true);
            }
            bench_self(['switch', (string) $made['cmid'], '0']);
            foreach ([1, 2] as $round) {
                $off = json_decode(bench_self(['render', (string) $made['cmid'], (string) $made['teacherid']]), true);
            }
        } finally {
            bench_self(['teardown', (string) $made['courseid'], json_encode($made['users'])]);
            if (!$ready) {
                set_config('enableplagiarism', $saved['enableplagiarism']);
                set_config('enabled', $saved['enabled'] === false ? 0 : $saved['enabled'], 'plagiarism_olti');
                set_config('typeid', $saved['typeid'] === false ? 0 : $saved['typeid'], 'plagiarism_olti');
                flock($lock, LOCK_UN);
            }
        }
        echo json_encode(['students' => $students, 'readsOn' => $on['reads'], 'readsOff' => $off['reads'],
            'linkCalls' => $on['badges'], 'badgesOff' => $off['badges']]) . "\n";
}
