"""A room's two dialogs: one chat line or a quick reaction (``c``), and the host's powers
over the seats (``x``: skip a turn, hand a seat to the computer and back, remove, mute).

Both return what was chosen (``dismiss``); the room's screen sends it to the host, which
checks it again and tells everyone what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList
from textual.widgets.option_list import Option

from ..net.protocol import MAX_CHAT, REACTION_TEXT, REACTIONS, SeatInfo
from .dialog import Dialog


@dataclass(frozen=True)
class Said:
    """What the chat dialog sends: a line of text, or a reaction's key."""

    text: str | None = None
    reaction: str | None = None


class ChatDialog(Dialog[Said | None]):
    """One line to everyone in the room (Enter), or a quick reaction (its key or button)."""

    CSS_PATH = "dialogs.tcss"
    AUTO_FOCUS = "#chat-line"
    BINDINGS = [
        Binding("escape", "close", "Close"),
        *(
            Binding(f"f{number}", f"react('{key}')", REACTION_TEXT[key], show=False)
            for number, key in enumerate(REACTIONS, start=1)
        ),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat", classes="dialog"):
            yield Label("Say something to the room", classes="dialog-title", markup=False)
            yield Input(
                id="chat-line", max_length=MAX_CHAT, placeholder=f"{MAX_CHAT} characters at most"
            )
            with Horizontal(classes="buttons"):
                for number, key in enumerate(REACTIONS, start=1):
                    yield Button(f"{REACTION_TEXT[key]} F{number}", id=f"react-{key}")
            yield Label("Enter sends the line; F1-F5 react; Escape closes", classes="dialog-hint")

    def on_mount(self) -> None:
        # Focused before the first frame: keys typed right after c go into the line.
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _send(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(Said(text=text) if text else None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        key = (event.button.id or "").removeprefix("react-")
        self.action_react(key)

    def action_react(self, key: str) -> None:
        if key in REACTIONS:
            self.dismiss(Said(reaction=key))

    def action_close(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class HostOrder:
    """One of the host's powers over a seat: ``skip``, ``hand`` (``to``), ``kick``, ``mute``
    (``seat`` -1: a watcher's chat)."""

    kind: str
    seat: int
    name: str
    to: str = ""
    muted: bool = True


def host_orders(
    seats: Sequence[SeatInfo],
    own: int | None,
    to_move: int | None,
    watchers: Sequence[str] = (),
    muted_watchers: Sequence[str] = (),
) -> list[tuple[str, HostOrder]]:
    """What the host can do now, seat by seat, in words: skipping only the seat to move,
    handing over only a taken person's seat, never removing the host's own; muting or
    letting chat again as the room says the seat is (``SeatInfo.muted``: after a
    ``--resume`` too), and the same for each watcher (``muted_watchers``)."""
    orders: list[tuple[str, HostOrder]] = []
    for index, seat in enumerate(seats):
        if seat.kind == "computer" or seat.removed:
            continue
        name = seat.name
        if index == to_move and index != own:
            orders.append((f"Skip {name}'s turn", HostOrder("skip", index, name)))
        if seat.taken and index != own:
            if seat.standin:
                orders.append(
                    (f"Give {name} their seat back", HostOrder("hand", index, name, "person"))
                )
            else:
                orders.append(
                    (
                        f"Let the computer play for {name}",
                        HostOrder("hand", index, name, "computer"),
                    )
                )
        if seat.taken and not seat.connected and index != own:
            orders.append(
                (
                    f"Give {name}'s seat to whoever joins as {name}",
                    HostOrder("hand", index, name, "anyone"),
                )
            )
        if index != own:
            orders.append((f"Remove {name} from the game", HostOrder("kick", index, name)))
        if seat.taken and index != own:
            silent = seat.muted
            words = f"Let {name} chat again" if silent else f"Mute {name}'s chat"
            orders.append((words, HostOrder("mute", index, name, muted=not silent)))
    for name in watchers:
        silent = name in muted_watchers
        words = f"Let {name} chat again" if silent else f"Mute {name}'s chat (watching)"
        orders.append((words, HostOrder("mute", -1, name, muted=not silent)))
    return orders


class HostDialog(Dialog[HostOrder | None]):
    """The host's powers over the other seats, as a list to pick from."""

    CSS_PATH = "dialogs.tcss"
    AUTO_FOCUS = "#host-orders"
    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, orders: list[tuple[str, HostOrder]]) -> None:
        super().__init__()
        self.orders = orders

    def compose(self) -> ComposeResult:
        with Vertical(id="host", classes="dialog"):
            yield Label("The host decides", classes="dialog-title", markup=False)
            options = [
                Option(words, id=str(number)) for number, (words, _) in enumerate(self.orders)
            ]
            if not options:
                options = [Option("Nothing to decide now", id="none", disabled=True)]
            yield OptionList(*options, id="host-orders", markup=False)
            yield Label("Enter does it; Escape closes", classes="dialog-hint")

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        number = event.option.id
        if number is not None and number.isdigit():
            self.dismiss(self.orders[int(number)][1])

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["ChatDialog", "HostDialog", "HostOrder", "Said", "host_orders"]
