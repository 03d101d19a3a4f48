"""The soaks: the long sweeps of the suite, which `make test` leaves to `make soak-tests`.

A soak tries one behaviour over and over: a run killed at each of many steps, many random
games, a flood of mail, processes racing, a file spoilt in every way or at every few bytes.
`make test` keeps a short form of each (one kill point, one race, one short game), so that
every behaviour is still tried in the run a developer waits for; CI (.ci/run) runs both.

SOAKS below is the whole split, one line a test:
- a tuple names the cases of a parametrized test kept in `make test`; its other cases are
  soaks;
- a string names the test of the same module that is the quick form of this one, which is
  then a soak as a whole.
The collection stops, naming the line, when a line names a test, a case or a quick form
that is not there, or a quick form that is itself a soak: a sweep cannot leave `make test`
without its short form, nor a stale line stand.
"""

from __future__ import annotations

import os

import pytest

MARK = "soak"

SOAKS: dict[str, tuple[str, ...] | str] = {
    # A run killed at each step, then run again: one step in `make test`.
    "tests/skirmish/test_skirmish_faulted_mail.py::test_killed_at_any_step_the_rerun_ends_as_"
    "a_run_without_the_kill": ("reply",),
    "tests/test_tick_sharing.py::test_a_shared_pass_killed_at_a_step_then_run_again_applies_"
    "and_answers_once": ("reply",),
    "tests/test_too_large_killed.py::test_a_pass_killed_at_a_step_answers_a_mail_too_large_"
    "once": ("written",),
    "tests/test_too_large_race.py::test_an_index_saved_by_a_pass_beside_a_killed_one_loses_no_"
    "answer": ("written",),
    "tests/test_fresh_mail.py::test_a_pass_killed_at_a_step_then_run_again_answers_once":
        ("reply-germans1", "stray-germans0"),
    "tests/test_mail_robots.py::test_killed_at_any_step_of_a_bounce_the_moderator_is_told_once":
        ("written",),
    "tests/test_held_orders_killed.py::test_a_pass_killed_while_it_holds_orders_holds_them_"
    "once_and_answers_once": ("applied",),
    "tests/test_inbox_faults.py::test_killed_at_any_step_the_rerun_ends_as_a_run_without_the_"
    "fault": ("applied",),
    "tests/test_news_mail.py::test_a_pass_killed_while_writing_the_news_sends_each_once":
        ("written",),
    "tests/test_planted_mail_names.py::test_a_run_killed_after_writing_a_mail_under_its_"
    "second_name_does_not_write_it_again": ("False",),
    # Floods of mail, races of many processes, and a pass shared among workers: a few mails
    # or processes in `make test`.
    "tests/test_tick_flood.py::test_mail_naming_a_games_tag_is_kept_on_disk_until_the_game_"
    "reads_it": "test_mail_naming_a_games_tag_is_kept_on_disk_until_the_game_reads_it_briefly",
    "tests/test_tick_flood.py::test_strangers_mail_no_game_claims_is_read_one_message_at_a_"
    "time": "test_strangers_mail_no_game_claims_is_read_one_message_at_a_time_briefly",
    "tests/test_inbox_faults.py::test_a_big_mbox_is_read_message_by_message":
        "test_a_big_mbox_is_read_message_by_message_briefly",
    "tests/test_unattended.py::test_tick_killed_at_each_step_then_run_again_ends_as_a_run_"
    "without_the_kill": ("quick",),
    "tests/test_unattended.py::test_a_game_played_by_mail_only_the_moderator_idle_after_new":
        ("quick",),
    "tests/test_unattended.py::test_eight_ticks_at_once_apply_and_answer_each_message_once":
        ("quick",),
    "tests/test_inbox_faults.py::test_eight_runs_at_once_apply_and_answer_each_message_once":
        ("quick",),
    "tests/test_trust.py::test_concurrent_orders_leave_only_views_of_the_bytes_they_describe":
        ("quick",),
    "tests/test_trust.py::test_snapshots_truncated_at_every_193rd_byte_are_misses": ("quick",),
    "tests/test_tick_sharing.py::test_a_pass_shared_among_workers_does_what_one_process_does":
        ("quick",),
    # Positions varied in what their reader may not see: two short games in `make test`.
    "tests/test_noninterference.py::test_a_reader_is_told_the_same_whatever_he_may_not_"
    "see": ("s1-ttlm-1914-hidden", "s2-ttlm-1914-open-quiet"),
    # Long games and many drawn cases: a turn or a few dozen in `make test`.
    **{name: ("quick",) for name in (
        "tests/test_soak.py::test_a_random_1914_game_through_six_turns",
        "tests/test_soak.py::test_autoplay_until_a_turn_and_resume",
        "tests/test_sequence.py::test_passing_through_every_turn_reaches_the_end_and_verifies",
        "tests/test_quick_forms.py::test_a_tick_logged_to_one_file_has_its_lines_before_its_"
        "error_by_either_door",
        "tests/test_sides_data.py::test_the_outputs_name_renamed_sides_as_the_data_does",
        "tests/test_journal.py::test_the_parts_in_their_places_give_the_hash_form_or_nothing",
        "tests/test_journal.py::test_the_quick_hash_check_agrees_with_record_hash",
        "tests/test_scripting_bot.py::test_games_list_names_the_sides_a_script_passes_to_as",
        "tests/test_cold_read.py::test_a_cold_read_with_its_check_beside_ends_as_one_checked_"
        "line_by_line",
        "tests/test_plan_kept.py::test_every_plan_state_of_random_at_all_costs_equals_a_fresh_"
        "one",
        "tests/test_renamed_sides.py::test_no_code_outside_the_scripted_ttlm_games_names_a_"
        "side")},
    # Random play, several games or seeds: one or a few in `make test`.
    "tests/test_side_words.py::test_no_prompt_names_a_side_by_its_id": ("ttlm",),
    "tests/test_leaks.py::test_no_reader_sees_a_secret":
        # every kind of stop, both kinds of templates, every scenario, both games, the
        # map picture, each text format, both ways of reading as the public, and an
        # armistice withdrawn, standing, lapsed and accepted
        ("g00-ttlm-1914-hidden-early48-armistice-withdrawn",
         "g03-ttlm-1916-open-sealed3-armistice-standing",
         "g04-aac-1914-hidden-turn-armistice-lapsed",
         "g11-ttlm-1918-open-early1-armistice-accepted"),
    "tests/skirmish/test_skirmish_leaks_random.py::test_no_reader_of_a_random_skirmish_sees_"
    "a_secret":
        # a stop just after a melee with a pass of tick, one just after a dispute (in the
        # barrage: the artillery phase), and one after the end and the reveal: three games
        ("g16-melee-tick", "g17-dispute-barrage", "g03-reveal"),
    "tests/test_leaks_late.py::test_every_record_of_the_stored_games_is_read_by_every_reader":
        "test_no_reader_sees_a_secret_late_in_a_game",
    "tests/test_forum_formats.py::test_a_random_campaigns_posts_read_as_posts":
        ("ttlm-1914-14",),
    "tests/test_defaults.py::test_every_decision_of_a_random_game_has_a_legal_answer":
        ("1914-2-None-36",),
    "tests/test_board_kept.py::test_every_board_read_in_random_play_with_the_optional_rules":
        ("ttlm-1914-options0-3",),
    "tests/test_board_kept.py::test_every_board_read_equals_a_fresh_one":
        ("ttlm-1914-seed7.jsonl",),
    "tests/test_replay_identity.py::test_every_record_is_decided_again_to_the_same_events_"
    "and_dice": ("ttlm-1914-seed7.jsonl",),
    "tests/test_hidden_templates.py::test_random_games_leak_no_army_contents": ("1914-2-4",),
    "tests/test_reinforce_room_played.py::test_the_counted_room_of_every_plan_of_a_stored_"
    "game_is_the_played_room": ("ttlm-1914-seed7.jsonl.gz-20",),
    "tests/test_reinforce_room_played.py::test_the_counted_room_of_every_plan_of_a_random_"
    "game_is_the_played_room": ("aac-1914-open-6",),
    "tests/skirmish/test_skirmish_listed_all.py::test_every_listed_order_can_be_legal_and_"
    "every_legal_one_is_listed": ("patrol-1", "duel-1"),
    # Pictures laid out from many seeds, sizes or spoilt copies: a few in `make test`.
    "tests/test_map_picture.py::test_the_free_places_are_every_box_clear_of_what_is_drawn":
        ("0",),
    "tests/test_map_picture.py::test_no_label_meets_a_circle_or_another_label_nor_a_line_"
    "shows_through": ("ttlm",),
    "tests/test_map_kept.py::test_a_kept_part_not_as_this_users_referee_wrote_it_is_made_"
    "again": ("_edited", "_another_key", "_an_area_short", "_padded"),
    "tests/test_map_limits.py::test_a_stack_too_big_for_a_readable_map_is_a_problem_not_a_"
    "huge_picture": ("quick",),
    "tests/test_map_limits.py::test_a_map_that_fits_only_many_levels_above_the_guess_is_"
    "still_drawn": ("quick",),
    **{f"tests/test_map_counters.py::{name}": ("quick",) for name in (
        "test_every_unit_the_reader_may_see_is_one_counter_at_its_area",
        "test_each_counter_stands_at_its_area",
        "test_no_side_list_and_no_unit_named_outside_its_counter",
        "test_no_two_texts_or_counters_overlap_and_none_covers_a_circle",
        "test_a_counter_says_what_the_reader_may_see",
        "test_a_name_or_mark_is_nearer_its_own_circle_than_any_other")},
    "tests/test_map_too_short.py::test_giving_up_early_keeps_every_layout_the_placing_alone_"
    "would_make": ("50",),
    "tests/test_map_too_short.py::test_fits_alone_answers_as_the_area_placed_first_on_the_"
    "bare_map": ("40",),
    # Hostile texts and addresses of one kind, many spellings: two in `make test`.
    "tests/test_wrap_groups.py::test_a_long_hostile_text_is_bound_in_little_time":
        ("text0", "text3"),
    "tests/test_mail_robots.py::test_a_forged_bounce_cannot_hand_over_an_address_spelt_out":
        ("spy at evil.example", "spy\\uff20evil.example"),
    "tests/test_journal.py::test_editing_any_byte_names_that_record": ("1",),
    # Races of two passes, and locks of each kind: one or two in `make test`.
    "tests/test_mail_robots.py::test_two_passes_at_once_set_a_robot_mail_aside_once":
        ("bulk",),
    "tests/test_tick_busy.py::test_a_game_held_locked_is_passed_over_and_its_mail_waits_for_"
    "the_next_pass": ("journal", "mail lock"),
    "tests/test_tick_index.py::test_a_players_mail_over_the_limit_in_an_mbox_is_answered_once":
        ("runs0",),
}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", f"{MARK}: a long sweep (tests/soaks.py), run by `make soak-tests` and CI, "
        "not by `make test`")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """Mark the soaks SOAKS names before `-m` picks, once every line is checked."""
    problems = stale_lines(items, SOAKS, _picked_modules(config.args, config.rootpath))
    if problems:
        raise pytest.UsageError("tests/soaks.py:\n  " + "\n  ".join(problems))
    for item in items:
        if is_soak(item.nodeid, SOAKS):
            item.add_marker(MARK)


def _split(nodeid: str) -> tuple[str, str | None]:
    """A test's id as SOAKS names it, and its case (None: not parametrized)."""
    if nodeid.endswith("]") and "[" in nodeid:
        name, _, case = nodeid[:-1].partition("[")
        return name, case
    return nodeid, None


def is_soak(nodeid: str, soaks: dict) -> bool:
    name, case = _split(nodeid)
    kept = soaks.get(name)
    if kept is None:
        return False
    return isinstance(kept, str) or case not in kept


def _picked_modules(args: list[str], root) -> set[str]:
    """The modules of which the command line names single tests (tests/x.py::test_y), as
    test ids name them: their other tests are not collected, and are not missing."""
    return {os.path.relpath(os.path.abspath(arg.partition("::")[0]), root).replace(os.sep, "/")
            for arg in args if "::" in arg}


def stale_lines(items, soaks: dict, picked: set[str] = frozenset()) -> list[str]:
    """The lines of soaks that name no test, a case the test does not have, or a quick form
    that is not a test of the module or is itself a soak. Only the modules collected whole
    are judged (a run of some files checks their lines; picked: modules of which only some
    tests were asked for)."""
    cases: dict[str, set[str | None]] = {}
    for item in items:
        name, case = _split(item.nodeid)
        cases.setdefault(name, set()).add(case)
    modules = {name.partition("::")[0] for name in cases} - set(picked)
    problems = []
    for name, kept in soaks.items():
        if name.partition("::")[0] not in modules:
            continue
        if name not in cases:
            problems.append(f"{name}: no such test")
        elif isinstance(kept, str):
            quick = f"{name.partition('::')[0]}::{kept}"
            if quick not in cases or quick in soaks and isinstance(soaks[quick], str):
                problems.append(f"{name}: its quick form {kept} is no test of its module, or "
                                f"is a soak as a whole")
        elif not kept or not set(kept) <= cases[name]:
            problems.append(f"{name}: keeps {sorted(set(kept) - cases[name])}, which it has "
                            f"no case of, or no case at all")
    return problems
