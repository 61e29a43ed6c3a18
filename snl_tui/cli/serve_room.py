"""``snl serve``'s room door helpers (``--room``): the room's websocket passed through
(``pump``) and the door that stops with its ``snl host`` (``stop_without``). Imported
only once textual-serve (and so aiohttp) is known to be there."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import aiohttp
from aiohttp import web

PARENT_CHECK = 1.0
"""Seconds between two looks at whether ``snl host`` (the door's parent) still runs."""


async def stop_without(parent: int) -> None:
    """Stop this door (as Ctrl+C would) once ``parent``, the ``snl host`` that
    started it, is gone, even killed with -9: a door left behind would keep the port
    that ``snl host --resume`` opens the room's door on again."""
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_CHECK)
    os.kill(os.getpid(), signal.SIGTERM)


async def pump(outside: web.WebSocketResponse, inside: Any) -> None:
    """Text frames both ways until either side closes."""

    async def out_to_in() -> None:
        async for message in outside:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            await inside.send_str(message.data)

    async def in_to_out() -> None:
        async for message in inside:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            await outside.send_str(message.data)

    tasks = [asyncio.ensure_future(out_to_in()), asyncio.ensure_future(in_to_out())]
    _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    await inside.close()
    await outside.close()
