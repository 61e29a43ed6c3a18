"""``snl serve`` without a browser: the command each tab runs, the missing extra, the host
warning (tests/e2e/test_browser.py plays in Chromium)."""

from __future__ import annotations

import shlex
import sys

import pytest

from snl_tui.cli import serve, serve_commands, serve_guards
from snl_tui.cli.common import rule_overrides
from snl_tui.cli.main import build_parser, main


def command_for(*argv: str) -> list[str]:
    """The words of the game command a tab runs, after its memory limit."""
    args = build_parser().parse_args(["serve", *argv])
    words = shlex.split(serve_commands.play_command(args, rule_overrides(args)))
    assert words[:3] == ["ulimit", "-d", str(serve_guards.MEMORY_LIMIT_MB * 1024)]
    exec_at = words.index("exec")
    assert words[exec_at - 1] == "&&"
    return words[exec_at + 1 :]


def test_each_tab_runs_this_interpreter_with_the_options(tmp_path, monkeypatch) -> None:
    board = tmp_path / "my board.toml"
    board.write_text("")
    monkeypatch.chdir(tmp_path)
    words = command_for("my board.toml", "--players", "Ann,cpu", "--faces", "8", "--no-chain")
    assert words[:4] == [sys.executable, "-m", "snl_tui", "play"]
    assert words[4] == str(board.resolve())  # absolute: the game finds it from anywhere
    assert "--no-resume-offer" in words and "--no-save" not in words
    assert words[words.index("--players") + 1] == "Ann,cpu"
    assert words[words.index("--faces") + 1] == "8"
    assert "--no-chain" in words
    assert "--no-save" in command_for("--no-save")


def test_with_a_room_each_tab_joins_it_under_a_numbered_name() -> None:
    words = command_for("--room", "127.0.0.1:8765/ABCD", "--password", "p w", "--no-animation")
    assert words[:5] == [sys.executable, "-m", "snl_tui", "join", "127.0.0.1:8765/ABCD"]
    assert words[words.index("--name") + 1] == "Guest"
    # The password is in the game's environment, not on its command line (ps shows it).
    assert "--numbered" in words and "--password" not in words and "p w" not in words
    args = build_parser().parse_args(["serve", "--room", "h:1/C", "--password", "p w"])
    assert "export SNL_ROOM_PASSWORD='p w' && exec " in serve_commands.play_command(args, {})
    assert "--no-animation" in words and "play" not in words
    named = command_for("--room", "h:1/C", "--name", "Table 2")
    assert named[named.index("--name") + 1] == "Table 2"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--room", "nowhere"], "not a room address"),
        (["--room", "h:1/C", "--name", "cpu"], "computer"),
    ],
)
def test_a_bad_room_or_name_is_one_line(argv: list[str], message: str, capsys) -> None:
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_without_textual_serve_one_line_says_how_to_install(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "textual_serve", None)
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install" in err and "[web]" in err


@pytest.mark.parametrize(("host", "warned"), [("127.0.0.1", False), ("0.0.0.0", True)])
def test_only_another_host_warns(monkeypatch, capsys, host, warned) -> None:
    served: list[str] = []

    class FakeServer:
        def __init__(self, command: str, **options: object) -> None:
            served.append(command)

        def serve(self) -> None:
            pass

    monkeypatch.setattr(serve, "_server_class", lambda: FakeServer)
    assert main(["serve", "--host", host]) == 0
    assert served and ("anyone who can reach" in capsys.readouterr().err) == warned


def test_a_bad_board_is_one_line_before_serving(capsys) -> None:
    assert main(["serve", "no-such-board"]) == 2
    assert "no-such-board" in capsys.readouterr().err


def test_port_0_is_a_free_port_chosen_before_the_link_is_said(monkeypatch) -> None:
    ports: list[object] = []

    class FakeServer:
        def __init__(self, command: str, **options: object) -> None:
            ports.append(options["port"])

        def serve(self) -> None:
            pass

    monkeypatch.setattr(serve, "_server_class", lambda: FakeServer)
    assert main(["serve", "--port", "0"]) == 0
    [port] = ports
    assert isinstance(port, int) and 0 < port < 65536


def test_a_host_that_cannot_be_resolved_is_one_line(capsys) -> None:
    assert main(["serve", "--host", "not a host!"]) == 2
    err = capsys.readouterr().err
    assert err == "snl serve: cannot resolve the host 'not a host!'\n"


def test_allow_origin_must_be_an_origin(capsys) -> None:
    assert main(["serve", "--allow-origin", "games.example.org"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an origin" in err


@pytest.mark.parametrize(
    ("value", "expected"),
    [("80", 80), ("10000", 400), (99999, 400), ("-5", 20), ("lots", 33), (None, 33), ("", 33)],
)
def test_page_sizes_are_clamped(value: object, expected: int) -> None:
    assert serve.clamp(value, (20, 400), 33) == expected


@pytest.mark.parametrize(
    ("origin", "host", "extra", "let_in"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", (), True),
        ("http://localhost:8000", "localhost:8000", (), True),
        ("http://evil.example.com", "127.0.0.1:8000", (), False),
        ("http://evil.example.com:8000", "evil.example.com:8000", (), False),  # rebound
        (None, "127.0.0.1:8000", (), False),
        ("https://games.example.org", "127.0.0.1:8000", ("https://games.example.org",), True),
    ],
)
def test_origins(origin: str | None, host: str, extra: tuple[str, ...], let_in: bool) -> None:
    hosts = serve.host_names("127.0.0.1", 8000)
    assert serve.allowed(origin, host, hosts, extra) is let_in


def test_another_address_accepts_the_pages_own_origin_only() -> None:
    hosts = serve.host_names("0.0.0.0", 8000)
    assert serve.allowed("http://192.168.1.5:8000", "192.168.1.5:8000", hosts, ())
    assert not serve.allowed("http://evil.example.com", "192.168.1.5:8000", hosts, ())
