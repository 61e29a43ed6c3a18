"""``snl host``'s and ``snl join``'s party options (issue 31): the timers' and the web
door's arguments, their one-line mistakes, and the browser door's link as an address."""

from __future__ import annotations

import pytest

from snl_tui.cli.main import main
from snl_tui.core.errors import SnlError
from snl_tui.net.address import WEB_ROOM_PATH, RoomAddress, parse_address


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["host", "--turn-time", "0"], "seconds from 1 to 86400"),
        (["host", "--turn-time", "soon"], "seconds from 1 to 86400"),
        (["host", "--away-after", "-5"], "seconds from 1 to 86400"),
        (["host", "--late", "later"], "invalid choice: 'later'"),
        (["host", "--allow-origin", "https://games.example.org"], "add --web"),
        (["host", "--players", "Ann,Bob", "--seats", "1"], "--seats 3 adds one free seat"),
        (["join", "http://example.org:8000/room/ABC"], "http://example.org:8000/join/K7Q2MX"),
    ],
)
def test_party_mistakes_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    ("text", "uri", "shown"),
    [
        (
            "http://example.org:8000/join/k7q2mx",
            f"ws://example.org:8000{WEB_ROOM_PATH}",
            "http://example.org:8000/join/K7Q2MX",
        ),
        (
            "https://games.example.org/join/K7Q2MX/",
            f"wss://games.example.org:443{WEB_ROOM_PATH}",
            "https://games.example.org/join/K7Q2MX",
        ),
        (
            "http://[::1]:80/join/K7Q2MX",
            f"ws://[::1]:80{WEB_ROOM_PATH}",
            "http://[::1]/join/K7Q2MX",
        ),
        ("127.0.0.1:8765/K7Q2MX", "ws://127.0.0.1:8765/", "127.0.0.1:8765/K7Q2MX"),
    ],
)
def test_the_browser_doors_link_is_an_address_too(text: str, uri: str, shown: str) -> None:
    address = parse_address(text)
    assert address.code == "K7Q2MX"
    assert address.uri == uri and str(address) == shown
    assert parse_address(str(address)) == address


@pytest.mark.parametrize(
    "text", ["http://example.org:0/join/K7Q2MX", "ftp://example.org/join/K7Q2MX", "http://x/K7"]
)
def test_a_bad_link_is_one_clear_error(text: str) -> None:
    with pytest.raises(SnlError, match="not a room address"):
        parse_address(text)


def test_a_plain_address_is_not_a_web_one() -> None:
    assert not RoomAddress("h", 1, "C").web
