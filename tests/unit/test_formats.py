"""Board files: every format loads, every SPEC 2 error is named precisely, writers round-trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snl_tui import Board, BoardError, Rules, RulesError, load_board
from snl_tui.core.files.common import RULE_ORDER, document
from snl_tui.core.files.formats import FORMATS, dump_board, parse_board
from snl_tui.core.files.json_board import lost_in_matrix

from .reference import LEETCODE_1

SUFFIX = {"matrix": ".json", "toml": ".toml", "txt": ".txt", "json": ".json"}


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# -- each format loads ---------------------------------------------------------------------


def test_matrix_json(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, "lc.json", json.dumps(LEETCODE_1)))
    assert board == Board.from_matrix(LEETCODE_1)
    assert board.jumps == {2: 15, 14: 35, 17: 13}
    assert board.name == "lc"  # a matrix has no name: the file's stem stands in


def test_resolved_matrix_means_the_same(tmp_path: Path) -> None:
    resolved = Board.from_matrix(LEETCODE_1).to_matrix(resolved=True)
    assert resolved[5][0] == 1
    board = load_board(write(tmp_path, "resolved.json", json.dumps(resolved)))
    assert board == Board.from_matrix(LEETCODE_1)


def test_toml_document(tmp_path: Path) -> None:
    text = """
name = "Chutes"
description = "two lines\\nof text"
size = 10
ladders = [[1, 38], [4, 14]]
snakes = [[16, 6]]
[rules]
start = 0
overshoot = "bounce"
"""
    board = load_board(write(tmp_path, "b.toml", text))
    assert (board.rows, board.cols) == (10, 10)
    assert board.jumps == {1: 38, 4: 14, 16: 6}
    assert board.rules == Rules(start=0, overshoot="bounce")
    assert board.name == "Chutes"
    assert board.description == "two lines\nof text"


def test_json_document_with_rows_and_cols(tmp_path: Path) -> None:
    text = json.dumps(
        {"name": "wide", "rows": 3, "cols": 5, "ladders": [[2, 9]], "rules": {"faces": 4}}
    )
    board = load_board(write(tmp_path, "wide.json", text))
    assert (board.rows, board.cols, board.jumps) == (3, 5, {2: 9})
    assert board.rules.faces == 4


def test_jump_list_with_header_comments(tmp_path: Path) -> None:
    text = """# name: Thirty
# description: first line
# description: second line
# rules: start=0, chain=true faces=8
5 6   # rows cols
3 22
27 1  # a snake

# comment line
"""
    board = load_board(write(tmp_path, "t.txt", text))
    assert (board.rows, board.cols, board.jumps) == (5, 6, {3: 22, 27: 1})
    assert board.rules == Rules(start=0, chain=True, faces=8)
    assert board.name == "Thirty"
    assert board.description == "first line\nsecond line"


def test_plain_jump_list_has_default_rules(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, "plain.txt", "# just a comment\n4 4\n2 15\n14 3\n"))
    assert board.rules == Rules()
    assert board.jumps == {2: 15, 14: 3}
    assert board.name == "plain"


def test_jump_list_single_number_is_a_square_board(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, "sq.txt", "6\n2 15\n"))
    assert (board.rows, board.cols) == (6, 6)


def test_comment_directives_after_the_size_line_are_plain_comments(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, "c.txt", "3 3\n# rules: nonsense here\n2 5\n"))
    assert board.rules == Rules()


@pytest.mark.parametrize(
    ("filename", "text"),
    [
        ("matrix.txt", json.dumps(LEETCODE_1)),  # a matrix in a .txt file
        ("doc.json", "size = 6\nladders = [[2, 15], [14, 35]]\nsnakes = [[17, 13]]\n"),
        ("list.toml", "6 6\n2 15\n14 35\n17 13\n"),
        ("noext", "6 6\n2 15\n14 35\n17 13\n"),
        ("doc", '{"size": 6, "ladders": [[2, 15], [14, 35]], "snakes": [[17, 13]]}'),
    ],
)
def test_format_is_chosen_by_content(tmp_path: Path, filename: str, text: str) -> None:
    board = load_board(write(tmp_path, filename, text))
    assert board == Board.from_matrix(LEETCODE_1)


def test_toml_may_open_with_a_table(tmp_path: Path) -> None:
    # "[rules]" first looks like JSON to a sniffer; it must still load as TOML.
    text = "[rules]\nstart = 0\n"
    with pytest.raises(BoardError, match="missing the board size"):
        load_board(write(tmp_path, "r.toml", text))


def test_utf8_bom_is_fine(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, "bom.txt", "\ufeff3 3\n2 5\n".encode()))
    assert board.jumps == {2: 5}


def test_builtin_name_and_explicit_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "classic", "2 2\n")
    assert load_board("classic").goal == 100  # a plain name is the built-in board
    assert load_board("./classic").goal == 4  # a path is a file
    assert load_board(Path("classic")).goal == 4


# -- rules given to load_board override the file's ------------------------------------------


def test_rules_value_replaces_the_files_rules() -> None:
    board = load_board("classic", Rules(faces=8))
    assert board.rules == Rules(faces=8)


def test_rules_mapping_changes_only_those_options() -> None:
    board = load_board("classic", {"faces": 8, "six-again": True})
    assert board.rules == Rules(start=0, faces=8, six_again=True)


def test_bad_rule_override_names_the_board() -> None:
    with pytest.raises(RulesError, match=r"^classic: .*faces"):
        load_board("classic", {"faces": 99})


def test_chain_override_checks_cycles(tmp_path: Path) -> None:
    path = write(tmp_path, "loop.txt", "3 3\n2 5\n5 2\n")
    assert load_board(path).jumps == {2: 5, 5: 2}
    with pytest.raises(BoardError, match="cycle"):
        load_board(path, {"chain": True})


# -- every SPEC 2 error, naming file and place ----------------------------------------------

BAD_FILES = [
    # (id, file name, content, fragments the message must contain)
    ("missing", None, None, ["no such file"]),
    ("not utf-8", "bin.toml", b"\xff\xfe\x00", ["not a text file"]),
    ("empty", "empty.txt", "", ["empty"]),
    ("blank", "blank.toml", "  \n\n", ["empty"]),
    ("json syntax", "bad.json", "[[-1, -1],\n [-1, ]]", ["malformed JSON", "line 2, column"]),
    ("json scalar", "num.json", "42", ["list of rows"]),
    ("json duplicate key", "dup.json", '{"size": 3, "size": 4}', ["duplicate key 'size'"]),
    ("toml syntax", "bad.toml", 'name = "x"\nsize = = 3\n', ["malformed TOML", "line 2"]),
    ("toml unclosed", "open.toml", "size = 3\nladders = [[2, 5]\n", ["malformed TOML"]),
    ("empty matrix", "e.json", "[]", ["empty"]),
    ("empty row", "e.json", "[[]]", ["row 0", "empty"]),
    ("ragged", "r.json", "[[-1, -1], [-1]]", ["row 1", "ragged"]),
    ("row not a list", "r.json", "[[-1, -1], 3]", ["row 1", "not a list"]),
    ("string cell", "c.json", '[[-1, "x"], [-1, -1]]', ["row 0, col 1 (square 3)", "'x'"]),
    ("float cell", "c.json", "[[-1, -1], [-1, 2.5]]", ["row 1, col 1 (square 2)", "2.5"]),
    ("bool cell", "c.json", "[[-1, -1], [true, -1]]", ["row 1, col 0 (square 1)", "whole"]),
    ("null cell", "c.json", "[[-1, null], [-1, -1]]", ["row 0, col 1 (square 3)"]),
    ("cell zero", "z.json", "[[-1, -1], [0, -1]]", ["square 1", "destination 0", "1..4"]),
    ("cell too big", "z.json", "[[-1, -1], [-1, 5]]", ["square 2", "destination 5"]),
    ("cell below -1", "z.json", "[[-1, -1], [-7, -1]]", ["square 1", "destination -7"]),
    ("matrix jump on goal", "g.json", "[[2, -1], [-1, -1]]", ["square 4", "goal"]),
    ("matrix too large", "big.json", json.dumps([[-1] * 1001, [-1] * 1001]), ["too large"]),
    ("doc unknown key", "k.toml", "size = 3\ncolour = 1\n", ["unknown key 'colour'"]),
    ("doc no size", "k.toml", 'name = "x"\n', ["missing the board size"]),
    ("doc rows only", "k.toml", "rows = 3\n", ["missing 'cols'"]),
    ("doc size and rows", "k.toml", "size = 3\nrows = 3\ncols = 3\n", ["either 'size'"]),
    ("doc size bool", "k.toml", "size = true\n", ["size", "whole number", "True"]),
    ("doc rows bool", "k.json", '{"rows": true, "cols": 3}', ["rows", "whole number"]),
    ("doc size float", "k.toml", "size = 3.0\n", ["size", "whole number"]),
    ("doc size zero", "k.toml", "size = 0\n", ["at least 1"]),
    ("doc one square", "k.toml", "size = 1\n", ["at least 2 squares"]),
    ("doc too large", "k.toml", "rows = 1001\ncols = 2\n", ["too large", "1000"]),
    ("doc name not str", "k.toml", "name = 3\nsize = 3\n", ["'name' must be a string"]),
    ("doc description", "k.json", '{"size": 3, "description": []}', ["'description'"]),
    ("ladders not list", "k.toml", 'size = 3\nladders = "2-5"\n', ["'ladders' must be a list"]),
    ("entry not pair", "k.toml", "size = 3\nladders = [[2, 5], [3]]\n", ["ladders entry 2"]),
    ("entry bool", "k.toml", "size = 3\nladders = [[true, 5]]\n", ["ladders entry 1", "whole"]),
    ("entry float", "k.json", '{"size": 3, "snakes": [[5, 1.0]]}', ["snakes entry 1"]),
    (
        "doc outside",
        "k.toml",
        "size = 3\nladders = [[2, 5], [4, 10]]\n",
        ["ladders entry 2", "destination 10", "1..9"],
    ),
    ("doc start outside", "k.toml", "size = 3\nsnakes = [[12, 1]]\n", ["snakes entry 1", "12"]),
    ("doc jump from goal", "k.toml", "size = 3\nsnakes = [[9, 1]]\n", ["snakes entry 1", "goal"]),
    (
        "snake as ladder",
        "k.toml",
        "size = 3\nladders = [[2, 5], [8, 3]]\n",
        ["ladders entry 2", "8 -> 3", "snake"],
    ),
    (
        "ladder as snake",
        "k.toml",
        "size = 3\nsnakes = [[4, 7]]\n",
        ["snakes entry 1", "4 -> 7", "ladder"],
    ),
    (
        "two jumps one square",
        "k.toml",
        "size = 3\nladders = [[2, 5]]\nsnakes = [[2, 1]]\n",
        ["snakes entry 1", "square 2"],
    ),
    ("jump to itself", "k.toml", "size = 3\nladders = [[4, 4]]\n", ["ladders entry 1", "nowhere"]),
    (
        "cycle under chain",
        "k.toml",
        "size = 3\nladders = [[2, 5]]\nsnakes = [[5, 2]]\n[rules]\nchain = true\n",
        ["cycle", "2 -> 5 -> 2"],
    ),
    ("unknown rule", "k.toml", "size = 3\n[rules]\ncolour = 1\n", ["rules", "unknown rule"]),
    ("bad start", "k.toml", "size = 3\n[rules]\nstart = 2\n", ["rules", "'start'", "2"]),
    ("bool start", "k.json", '{"size": 3, "rules": {"start": true}}', ["'start'"]),
    ("bad overshoot", "k.toml", 'size = 3\n[rules]\novershoot = "wrap"\n', ["'overshoot'"]),
    ("bad faces", "k.toml", "size = 3\n[rules]\nfaces = 1\n", ["'faces'"]),
    ("bad chain", "k.toml", 'size = 3\n[rules]\nchain = "maybe"\n', ["'chain'"]),
    ("rules not table", "k.toml", 'size = 3\nrules = "fast"\n', ["rules", "table"]),
    ("txt bad first line", "j.txt", "ten by ten\n", ["line 1", "rows cols"]),
    ("txt three numbers", "j.txt", "3 3 3\n", ["line 1", "rows cols"]),
    ("txt size not int", "j.txt", "3 x\n", ["line 1", "'x'"]),
    ("txt too large", "j.txt", "1001 2\n", ["line 1", "too large"]),
    ("txt only comments", "j.txt", "# nothing\n", ["no 'rows cols' line"]),
    ("txt one token", "j.txt", "3 3\n2 5\n7\n", ["line 3", "from to"]),
    ("txt not int", "j.txt", "3 3\n2 5.5\n", ["line 2", "'5.5'"]),
    ("txt outside", "j.txt", "3 3\n2 5\n# c\n4 0\n", ["line 4", "destination 0", "1..9"]),
    ("txt from goal", "j.txt", "3 3\n9 2\n", ["line 2", "goal (square 9)"]),
    ("txt two jumps", "j.txt", "3 3\n2 5\n2 7\n", ["line 3", "square 2"]),
    ("txt cycle", "j.txt", "# rules: chain=true\n3 3\n2 5\n5 2\n", ["cycle", "square"]),
    ("txt unknown rule", "j.txt", "# rules: speed=3\n3 3\n", ["line 1", "unknown rule"]),
    ("txt bad rule value", "j.txt", "# rules: faces=99\n3 3\n", ["line 1", "'faces'"]),
    ("txt rule no value", "j.txt", "# name: x\n# rules: start\n3 3\n", ["line 2", "name=value"]),
    ("txt rule twice", "j.txt", "# rules: start=0 start=1\n3 3\n", ["line 1", "twice"]),
    # A near miss of a rule's value or name says which one was meant, as the CLI does.
    (
        "near overshoot",
        "k.toml",
        'size = 3\n[rules]\novershoot = "bonce"\n',
        ["rules", "'overshoot'", "not 'bonce': did you mean 'bounce'?"],
    ),
    (
        "near overshoot json",
        "k.json",
        '{"size": 3, "rules": {"faces": 6, "overshoot": "Finsh"}}',
        ["rules", "did you mean 'finish'?"],
    ),
    (
        "txt near overshoot",
        "j.txt",
        "# rules: start=0 overshoot=stya\n3 3\n",
        ["line 1", "did you mean 'stay'?"],
    ),
    (
        "near rule name",
        "k.toml",
        "size = 3\n[rules]\nsix-agian = true\n",
        ["did you mean 'six_again'?"],
    ),
    ("txt near rule name", "j.txt", "# rules: chian=true\n3 3\n", ["did you mean 'chain'?"]),
]


@pytest.mark.parametrize(
    ("filename", "content", "fragments"),
    [case[1:] for case in BAD_FILES],
    ids=[case[0] for case in BAD_FILES],
)
def test_bad_board_files(
    tmp_path: Path, filename: str | None, content: str | bytes | None, fragments: list[str]
) -> None:
    path = tmp_path / "nowhere.toml" if filename is None else write(tmp_path, filename, content)
    with pytest.raises(BoardError) as caught:
        load_board(path)
    message = str(caught.value)
    assert caught.value.source == str(path)
    # A long temporary path is clipped in the message; it still leads the message.
    assert message.startswith(str(path)[:40]), message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_a_directory_is_not_a_board(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="directory"):
        load_board(tmp_path)


def test_unknown_name_lists_the_builtin_boards() -> None:
    with pytest.raises(BoardError, match=r"^clasic: no such file or built-in board.*classic"):
        load_board("clasic")


def test_file_errors_keep_their_type(tmp_path: Path) -> None:
    with pytest.raises(RulesError):
        load_board(write(tmp_path, "r.toml", "size = 3\n[rules]\nstart = 5\n"))


# -- writers ---------------------------------------------------------------------------------


def test_dump_matrix_is_leetcode_json() -> None:
    board = Board.from_matrix(LEETCODE_1)
    assert json.loads(dump_board(board, "matrix")) == LEETCODE_1


def test_dump_toml_reads_back_with_tomllib() -> None:
    import tomllib

    board = load_board("classic")
    data = tomllib.loads(dump_board(board, "toml"))
    assert data["size"] == 10
    assert data["rules"] == {"start": 0}
    assert [1, 38] in data["ladders"]
    assert [98, 78] in data["snakes"]
    assert data["description"] == board.description


def test_dump_rectangular_uses_rows_and_cols() -> None:
    board = Board(3, 5, [(2, 9)])
    text = dump_board(board, "toml")
    assert "rows = 3\ncols = 5" in text and "size" not in text
    assert dump_board(board, "txt").splitlines()[0] == "3 5"


def test_dump_txt_carries_rules_as_a_header_comment() -> None:
    board = Board(3, 3, [(2, 5)], rules=Rules(start=0, overshoot="bounce", chain=True))
    lines = dump_board(board, "txt").splitlines()
    assert "# rules: start=0 overshoot=bounce chain=true" in lines
    assert lines.index("# rules: start=0 overshoot=bounce chain=true") < lines.index("3 3")


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        dump_board(Board(2, 2), "yaml")


def test_lost_in_matrix() -> None:
    assert lost_in_matrix(Board(2, 2)) == {}
    assert lost_in_matrix(load_board("classic")) == {"start": 0}


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_awkward_text_survives_documents(fmt: str) -> None:
    # No control characters: a name or description holding one is refused at load
    # (issue 10 item 8, tests/unit/test_hostile_inputs.py); tabs only in descriptions.
    name = 'quote " back\\slash é 🐍 [x] #hash'
    description = "line one\n  indented\tline\nend  " + "long words " * 20
    board = Board(2, 3, [(2, 5)], name=name, description=description)
    back = parse_board(dump_board(board, fmt), suffix=SUFFIX[fmt])
    assert (back.name, back.description) == (name, description)


# -- round trips (hypothesis) ----------------------------------------------------------------

words = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("C", "Z")), min_size=1, max_size=8
)
clean_line = st.lists(words, min_size=1, max_size=12).map(" ".join)
rules_strategy = st.builds(
    Rules,
    start=st.sampled_from([0, 1]),
    overshoot=st.sampled_from(["stay", "bounce", "finish"]),
    chain=st.booleans(),
    faces=st.integers(2, 20),
    six_again=st.booleans(),
)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(2 if rows == 1 else 1, 12))
    goal = rows * cols
    starts = draw(st.lists(st.integers(1, goal - 1), unique=True, max_size=min(goal - 1, 15)))
    jumps = []
    for start in starts:
        end = draw(st.integers(1, goal).filter(lambda e, s=start: e != s))
        jumps.append((start, end))
    rules = draw(rules_strategy)
    name = draw(st.one_of(st.just(""), clean_line))
    description = draw(st.lists(clean_line, max_size=3).map("\n".join))
    try:
        return Board(rows, cols, jumps, rules=rules, name=name, description=description)
    except BoardError:  # a cycle under chain = true
        assume(False)
        raise


def _same(board: Board, back: Board, fmt: str) -> None:
    assert back == board
    assert (back.rows, back.cols, back.jumps, back.rules) == (
        board.rows,
        board.cols,
        board.jumps,
        board.rules,
    )
    if fmt != "matrix":
        if board.name:
            assert back.name == board.name
        assert back.description == board.description


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(board=boards())
def test_round_trip(fmt: str, board: Board) -> None:
    text = dump_board(board, fmt)
    # A matrix cannot hold rules: give them back when loading, as `snl play --faces` would.
    rules = board.rules if fmt == "matrix" else None
    back = parse_board(text, source=f"board{SUFFIX[fmt]}", rules=rules)
    _same(board, back, fmt)


@settings(max_examples=40, deadline=None)
@given(board=boards())
def test_round_trip_through_files(tmp_path_factory: pytest.TempPathFactory, board: Board) -> None:
    folder = tmp_path_factory.mktemp("round")
    for fmt in ("toml", "txt", "json"):
        path = folder / f"board-{fmt}{SUFFIX[fmt]}"
        path.write_text(dump_board(board, fmt), encoding="utf-8")
        _same(board, load_board(path), fmt)


@settings(max_examples=40, deadline=None)
@given(board=boards())
def test_resolved_matrix_round_trip(board: Board) -> None:
    text = json.dumps(board.to_matrix(resolved=True))
    assert parse_board(text, rules=board.rules) == board


@settings(max_examples=40)
@given(boards())
def test_toml_pairs_are_written_as_tomlkit_writes_them(board: Board) -> None:
    """The jump pairs are written by hand (tomlkit's ``Array.extend`` is quadratic: a
    1000 x 1000 board's 100,000 jumps took minutes): the text is tomlkit's own."""
    import tomlkit

    data = document(board)
    expected = tomlkit.document()
    for key, value in data.items():
        if key in ("ladders", "snakes"):
            pairs = tomlkit.array()
            pairs.extend(value)
            expected[key] = pairs.multiline(bool(value))
        elif key == "rules":
            table = tomlkit.table()
            for name in RULE_ORDER:
                if name in value:
                    table[name] = value[name]
            expected[key] = table
        else:
            expected[key] = value
    assert dump_board(board, "toml") == tomlkit.dumps(expected)


@pytest.mark.parametrize(
    "rules",
    [
        'overshoot = "wrap"',
        "colour = 1",
        "faces = 1",
        'chain = "maybe"',
        'overshoot = "bonce"\nfaces = 1',
    ],
)
def test_a_rule_far_from_any_gets_no_guess(tmp_path: Path, rules: str) -> None:
    """No "did you mean" when nothing is near, nor for the wrong option: with a bad
    ``faces`` and a near-miss ``overshoot``, the message names overshoot (the first rule
    in the rules' order) and its guess, never a guess about faces."""
    path = write(tmp_path, "far.toml", f"size = 3\n[rules]\n{rules}\n")
    with pytest.raises(BoardError) as caught:
        load_board(path)
    message = str(caught.value)
    if "bonce" in rules:
        assert "'overshoot'" in message and message.endswith("did you mean 'bounce'?")
    else:
        assert "did you mean" not in message, message


def test_the_guess_is_about_the_rule_refused(tmp_path: Path) -> None:
    """``start`` comes before ``overshoot`` in the rules' order: its bad number is the
    one refused, and no guess about overshoot's word is tacked onto it."""
    path = write(tmp_path, "two.toml", 'size = 3\n[rules]\novershoot = "bonce"\nstart = 2\n')
    with pytest.raises(BoardError) as caught:
        load_board(path)
    message = str(caught.value)
    assert "'start'" in message and "did you mean" not in message, message
