"""Rules: defaults, validation and the lenient spellings files and flags use."""

import pytest

from snl_tui.core.errors import RulesError
from snl_tui.core.rules import Rules


def test_defaults_are_leetcode_909():
    rules = Rules()
    assert (rules.start, rules.overshoot, rules.chain, rules.faces, rules.six_again) == (
        1,
        "stay",
        False,
        6,
        False,
    )
    assert rules.non_default() == {}


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"start": 2}, "'start' must be 0 or 1"),
        ({"start": True}, "'start' must be 0 or 1"),
        ({"overshoot": "wrap"}, "'overshoot' must be one of stay, bounce, finish"),
        ({"chain": "maybe"}, "'chain' must be true or false"),
        ({"faces": 1}, "'faces' must be a whole number from 2 to 20"),
        ({"faces": 21}, "'faces' must be a whole number from 2 to 20"),
        ({"faces": 6.0}, "'faces' must be a whole number"),
        ({"six_again": 1}, "'six_again' must be true or false"),
    ],
)
def test_bad_values_are_refused_with_the_option_named(changes, fragment):
    with pytest.raises(RulesError) as caught:
        Rules(**changes)
    assert fragment in str(caught.value)


def test_from_mapping_accepts_file_and_flag_spellings():
    rules = Rules.from_mapping(
        {"start": 0, "overshoot": "Bounce", "chain": True, "faces": 8, "six-again": True}
    )
    assert rules == Rules(start=0, overshoot="bounce", chain=True, faces=8, six_again=True)
    assert rules.non_default() == {
        "start": 0,
        "overshoot": "bounce",
        "chain": True,
        "faces": 8,
        "six_again": True,
    }


def test_from_mapping_keeps_the_base_for_unnamed_options():
    base = Rules(start=0, faces=10)
    assert Rules.from_mapping({"chain": True}, base=base) == Rules(start=0, faces=10, chain=True)


def test_unknown_rule_name_lists_the_known_ones():
    with pytest.raises(RulesError) as caught:
        Rules.from_mapping({"exact_finish": True})
    message = str(caught.value)
    assert "unknown rule 'exact_finish'" in message
    assert "overshoot" in message and "six_again" in message


def test_rules_table_must_be_a_table():
    with pytest.raises(RulesError):
        Rules.from_mapping(["start", 0])  # type: ignore[arg-type]


def test_replace_validates_and_refuses_unknown_names():
    assert Rules().replace(faces=4).faces == 4
    with pytest.raises(RulesError):
        Rules().replace(faces=40)
    with pytest.raises(RulesError):
        Rules().replace(colour="red")


def test_describe_names_every_option_that_changes_play():
    assert Rules().describe() == "start on square 1 · exact finish · 6-sided die"
    text = Rules(start=0, overshoot="bounce", chain=True, faces=8, six_again=True).describe()
    assert text == (
        "start off the board · bounce back from the goal · jumps chain · 8-sided die"
        " · an 8 rolls again"
    )
    assert Rules(six_again=True).describe().endswith("· a 6 rolls again")
    assert "any roll past the goal wins" in Rules(overshoot="finish").describe()


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"start": "0"}, "'start' must be a number without quotes, not the text '0'"),
        ({"faces": "8"}, "'faces' must be a number without quotes"),
        ({"faces": 6.0}, "'faces' must be a whole number"),
        ({"chain": "true"}, "'chain' must be true or false without quotes"),
        ({"six-again": "yes"}, "'six_again' must be true or false without quotes"),
        ({"start": True}, "'start' must be 0 or 1"),
    ],
)
def test_from_mapping_wants_each_value_in_its_own_type(changes, fragment):
    # Issue 10 item 12: start = "0" was accepted while size = 3.0 was refused.
    with pytest.raises(RulesError) as caught:
        Rules.from_mapping(changes)
    assert fragment in str(caught.value)
