"""The rooms' protocol: every client frame is checked (type, fields, sizes, the 64 KB cap)
and anything else is a ProtocolError with a short code, never another exception."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from snl_tui.core.errors import SnlError
from snl_tui.core.session import GameSession
from snl_tui.net.address import RoomAddress, parse_address
from snl_tui.net.protocol import (
    CLIENT_MESSAGES,
    MAX_FRAME,
    PROTOCOL_VERSION,
    ProtocolError,
    SeatInfo,
    check_name,
    decode_client,
    decode_server,
    encode,
    read_state,
    state_json,
)

from .rooms import settings

JOIN = {"type": "join", "version": PROTOCOL_VERSION, "room": "ABC234", "name": "Ann"}


def frame(**message: object) -> str:
    return json.dumps(message)


def test_a_join_is_read_back() -> None:
    assert decode_client(frame(**JOIN)) == JOIN
    full = {**JOIN, "password": "pw", "token": "t" * 24, "spectate": True}
    assert decode_client(frame(**full)) == full


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"no": "type"}', "malformed"),
        ('{"type": 3}', "malformed"),
        ('{"type": "teleport"}', "unknown-type"),
        ('{"type": "roll"}', "malformed"),  # no token
        ('{"type": "roll", "token": 5}', "malformed"),
        ('{"type": "roll", "token": "t", "die": 6}', "malformed"),  # nobody chooses a roll
        ('{"type": "roll", "token": "t", "seat": 1}', "malformed"),  # nor a seat
        ('{"type": "sync", "x": NaN}', "malformed"),
        ('{"type": "join", "version": true, "room": "A", "name": "B"}', "malformed"),
        ('{"type": "join", "version": -1, "room": "A", "name": "B"}', "malformed"),
        ('{"type": "join", "version": 1, "room": "A", "name": "B", "spectate": 1}', "malformed"),
        ("[" * 100_000 + "]" * 100_000, "too-big"),
        ("[" * 30_000 + "]" * 30_000, "malformed"),  # deep nesting, under the cap
    ],
)
def test_bad_frames_are_protocol_errors(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        decode_client(text)
    assert raised.value.code == code


def test_binary_frames_are_refused() -> None:
    with pytest.raises(ProtocolError, match="binary"):
        decode_client(frame(**JOIN).encode())


def test_the_cap_counts_bytes_not_characters() -> None:
    name = "é" * (MAX_FRAME // 2)  # fewer characters than the cap, more bytes
    with pytest.raises(ProtocolError) as raised:
        decode_client(frame(**{**JOIN, "name": name}))
    assert raised.value.code == "too-big"


def test_long_fields_are_refused() -> None:
    with pytest.raises(ProtocolError, match="too long"):
        decode_client(frame(**{**JOIN, "name": "A" * 100}))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(st.one_of(st.text(max_size=300), st.binary(max_size=300)))
def test_any_frame_is_read_or_refused_cleanly(text: str | bytes) -> None:
    try:
        message = decode_client(text)
    except ProtocolError as error:
        assert error.code and str(error)
    else:
        assert message["type"] in CLIENT_MESSAGES


@given(
    kind=st.sampled_from([*CLIENT_MESSAGES, "move", "welcome", "x"]),
    fields=st.dictionaries(
        st.sampled_from(["version", "room", "name", "password", "token", "spectate", "die"]),
        json_values,
        max_size=6,
    ),
)
def test_messages_with_any_fields_are_checked(kind: str, fields: dict[str, object]) -> None:
    text = json.dumps({"type": kind, **fields})
    try:
        message = decode_client(text)
    except ProtocolError:
        return
    spec = CLIENT_MESSAGES[message["type"]]
    assert set(message) - {"type"} <= set(spec)
    for name, field in spec.items():
        if name in message:
            assert type(message[name]) in (
                field.kind if isinstance(field.kind, tuple) else (field.kind,)
            )


def test_names() -> None:
    assert check_name("  Ann ") == "Ann"
    for bad in ["", "   ", "a\x1b[2Jb", "Ann,Bob", "cpu", "CPU:Robo", "x\u202ey", "\ud800"]:
        with pytest.raises(ProtocolError):
            check_name(bad)


def test_room_addresses() -> None:
    assert parse_address("127.0.0.1:8765/k7q2mx") == RoomAddress("127.0.0.1", 8765, "K7Q2MX")
    assert parse_address("[::1]:9/ABC") == RoomAddress("::1", 9, "ABC")
    assert str(RoomAddress("::1", 9, "ABC")) == "[::1]:9/ABC"
    assert parse_address("friends.example:80/ABC").uri == "ws://friends.example:80/"
    for bad in [
        "",
        "host/ABC",
        "host:0/ABC",
        "host:70000/ABC",
        "host:80/",
        "ho st:80/A",
        "h:1/A\x1b",
    ]:
        with pytest.raises(SnlError, match="not a room address"):
            parse_address(bad)


def test_a_state_round_trips() -> None:
    session = GameSession(settings(["Ann", "cpu"]))
    session.move()
    seats = [SeatInfo("Ann", "person", True, False), SeatInfo("CPU", "computer", True, True)]
    text = encode("state", state=state_json("playing", seats, session))
    state = read_state(decode_server(text)["state"])
    assert state.seats == tuple(seats)
    assert state.session.game.rolls == session.game.rolls


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: s.update(status="paused"),
        lambda s: s.update(seats=[]),
        lambda s: s["seats"][0].update(kind="alien"),
        lambda s: s["seats"][0].update(taken="yes"),
        lambda s: s["session"].update(turn=5),
        lambda s: s.update(extra=1),
    ],
)
def test_a_damaged_state_is_a_protocol_error(damage: object) -> None:
    session = GameSession(settings(["Ann", "cpu"]))
    data = state_json(
        "playing",
        [SeatInfo("Ann", "person", True, True), SeatInfo("CPU", "computer", True, True)],
        session,
    )
    assert callable(damage)
    damage(data)
    with pytest.raises(ProtocolError):
        read_state(data)
