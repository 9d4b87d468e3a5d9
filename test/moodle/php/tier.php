<?php
// The real-Moodle tier's helper (test/moodle/tier.page.test.ts): what a site administrator would do in Moodle's own
// pages or scripts, and what the test reads back from Moodle's database. Prints one JSON document.
//   MOODLE_DIR=… php tier.php people <course shortname> <prefix>   students, a group, their passwords
//   MOODLE_DIR=… php tier.php configure <typeid>                   the plagiarism plugin on, for that tool type
//   MOODLE_DIR=… php tier.php state <cmid>                         the plugin's copies and reports of an assignment
//   MOODLE_DIR=… php tier.php left <userid> <submissionid>         what is left of a user or a submission
//   MOODLE_DIR=… php tier.php delete-user <userid>                 deletes the user, as Site administration does
//   MOODLE_DIR=… php tier.php submission <cmid> <userid>           a student's latest submission (id, status, attempt)
//   MOODLE_DIR=… php tier.php user <username>                      a user's id
//   MOODLE_DIR=… php tier.php links <cmid> <userid>                 get_links() for every paper, and its reads

define('CLI_SCRIPT', true);
require(getenv('MOODLE_DIR') . '/config.php');
require_once($CFG->libdir . '/clilib.php');
require_once($CFG->libdir . '/testing/generator/lib.php');
require_once($CFG->dirroot . '/user/lib.php');
require_once($CFG->dirroot . '/group/lib.php');

global $DB;
\core\session\manager::set_user(get_admin());
[$command] = array_slice($argv, 1, 1) + [''];
$args = array_slice($argv, 2);

function out($value): void {
    echo json_encode($value, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
}

switch ($command) {
    case 'people':
        [$shortname, $prefix] = $args;
        $course = $DB->get_record('course', ['shortname' => $shortname], '*', MUST_EXIST);
        $gen = new testing_data_generator();
        $people = [];
        foreach (['s1' => ['Ada', 'Lovelace'], 's2' => ['Grace', 'Hopper'], 's3' => ['Alan', 'Turing']] as $key => $name) {
            $username = "{$prefix}_{$key}";
            $password = 'Student#1234';
            $user = $DB->get_record('user', ['username' => $username, 'deleted' => 0]);
            if (!$user) {
                $user = $gen->create_user(['username' => $username, 'password' => $password, 'firstname' => $name[0],
                    'lastname' => $name[1], 'email' => "$username@example.com", 'auth' => 'manual', 'confirmed' => 1]);
            }
            $gen->enrol_user($user->id, $course->id, 'student');
            $people[$key] = ['id' => (int) $user->id, 'username' => $username, 'password' => $password,
                'name' => "{$name[0]} {$name[1]}"];
        }
        $group = $DB->get_record('groups', ['courseid' => $course->id, 'name' => 'Team Hopper']);
        if (!$group) {
            $group = $gen->create_group(['courseid' => $course->id, 'name' => 'Team Hopper']);
        }
        groups_add_member($group->id, $people['s2']['id']);
        groups_add_member($group->id, $people['s3']['id']);
        out(['course' => (int) $course->id, 'people' => $people, 'group' => ['id' => (int) $group->id,
            'name' => $group->name]]);
        break;

    case 'configure':
        [$typeid] = $args;
        set_config('enableplagiarism', 1);
        set_config('enabled', 1, 'plagiarism_olti');
        set_config('typeid', (int) $typeid, 'plagiarism_olti');
        set_config('resendafter', 2, 'plagiarism_olti');
        out(['typeid' => (int) get_config('plagiarism_olti', 'typeid')]);
        break;

    case 'state':
        [$cmid] = $args;
        $assets = $DB->get_records('plagiarism_olti_asset', ['cmid' => $cmid], 'id');
        $rows = [];
        foreach ($assets as $asset) {
            $reports = $DB->get_records('plagiarism_olti_report', ['assetid' => $asset->id], 'type',
                'type, processingprogress, result, visibletoowner, indicationcolor');
            $rows[] = [
                'uuid' => $asset->uuid, 'userid' => (int) $asset->userid, 'groupid' => (int) $asset->groupid,
                'submissionid' => (int) $asset->submissionid, 'attempt' => (int) $asset->attempt,
                'kind' => $asset->kind, 'filename' => $asset->filename, 'noticestatus' => $asset->noticestatus,
                'file' => (bool) $DB->record_exists('files', ['id' => $asset->fileid]),
                'reports' => array_values(array_map(fn($r) => [
                    'type' => $r->type, 'progress' => $r->processingprogress, 'result' => $r->result,
                    'visibletoowner' => (bool) $r->visibletoowner, 'colour' => $r->indicationcolor,
                ], $reports)),
            ];
        }
        $queued = $DB->count_records_select('task_adhoc', 'component = ?', ['plagiarism_olti']);
        out(['assets' => $rows, 'queued' => $queued]);
        break;

    case 'left':
        [$userid, $submissionid] = $args;
        $assets = $DB->get_records_select('plagiarism_olti_asset', 'userid = ? OR submissionid = ?',
            [$userid, $submissionid], '', 'id');
        $ids = array_keys($assets);
        $reports = 0;
        if ($ids) {
            [$in, $params] = $DB->get_in_or_equal($ids);
            $reports = $DB->count_records_select('plagiarism_olti_report', "assetid $in", $params);
        }
        $files = $DB->count_records_select('files',
            "component = 'plagiarism_olti' AND filename <> '.' AND (userid = ? OR itemid " .
            ($ids ? 'IN (' . implode(',', array_map('intval', $ids)) . ')' : '= -1') . ')', [$userid]);
        out(['assets' => count($ids), 'reports' => $reports, 'files' => $files]);
        break;

    case 'delete-user':
        [$userid] = $args;
        $user = $DB->get_record('user', ['id' => $userid], '*', MUST_EXIST);
        out(['deleted' => delete_user($user)]);
        break;

    case 'submission':
        [$cmid, $userid] = $args;
        $cm = get_coursemodule_from_id('assign', $cmid, 0, false, MUST_EXIST);
        $row = $DB->get_records('assign_submission', ['assignment' => $cm->instance, 'userid' => $userid, 'latest' => 1]);
        $row = reset($row);
        out($row ? ['id' => (int) $row->id, 'status' => $row->status, 'attempt' => (int) $row->attemptnumber] : null);
        break;

    case 'links':
        // What get_links() costs a page: every paper of the assignment shown to this user, as the grader shows them,
        // with the database reads it took.
        [$cmid, $userid] = $args;
        require_once($CFG->libdir . '/plagiarismlib.php');
        \core\session\manager::set_user(core_user::get_user($userid));
        $cm = get_coursemodule_from_id('assign', $cmid, 0, false, MUST_EXIST);
        $context = context_module::instance($cm->id);
        $fs = get_file_storage();
        $papers = [];
        foreach ($DB->get_records('assign_submission', ['assignment' => $cm->instance, 'latest' => 1]) as $submission) {
            foreach ($fs->get_area_files($context->id, 'assignsubmission_file', 'submission_files', $submission->id,
                    'id', false) as $file) {
                $papers[] = ['userid' => $file->get_userid(), 'file' => $file, 'cmid' => $cm->id, 'course' => $cm->course];
            }
            $text = $DB->get_field('assignsubmission_onlinetext', 'onlinetext', ['submission' => $submission->id]);
            if (trim((string) $text) !== '') {
                $papers[] = ['userid' => $submission->userid, 'content' => trim($text), 'cmid' => $cm->id,
                    'course' => $cm->course, 'assignment' => $cm->instance];
            }
        }
        // Until the first result is drawn, the reads include what any page has read by then (the user's
        // capabilities, the plugins' settings, the template); after it, they are the plugin's own cost per paper.
        $shown = 0;
        $untilfirst = 0;
        $after = 0;
        foreach ($papers as $paper) {
            $before = $DB->perf_get_reads();
            $drawn = plagiarism_get_links($paper) !== '';
            $reads = $DB->perf_get_reads() - $before;
            if ($shown) {
                $after += $reads;
            } else {
                $untilfirst += $reads;
            }
            $shown += $drawn ? 1 : 0;
        }
        out(['papers' => count($papers), 'shown' => $shown, 'untilfirst' => $untilfirst, 'afterfirst' => $after]);
        break;

    case 'version':
        [$component] = $args;
        out(['version' => (int) get_config($component, 'version')]);
        break;

    case 'user':
        [$username] = $args;
        out(['id' => (int) $DB->get_field('user', 'id', ['username' => $username, 'deleted' => 0], MUST_EXIST)]);
        break;

    default:
        fwrite(STDERR, "unknown command '$command'\n");
        exit(2);
}
