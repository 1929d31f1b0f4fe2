"""Streams held by waitress's own event loop, without a thread each.

Waitress serves a request in one of its few threads and holds every idle connection in one
loop (``poll()``). A game screen's stream (Server-Sent Events, :mod:`webapp.web.followers`)
is a response that never ends, so served as usual each would keep a thread for as long as
the page is open: eight open screens would leave nobody an answer. Here the view asks for the
connection instead (``environ[HOLD]()``, a :class:`HeldSink`); waitress sends the response's
headers and first bytes as usual, then gives the thread back and keeps the connection in its
loop like an idle one, and the followers' thread writes each change to it as one more chunk
of the chunked response. A connection the phone closes is dropped by the loop, which tells
the sink.

Measured with 4,000 open streams on the 2-core development machine: README, "Live updates".
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.task import WSGITask

from ..web.followers import HOLD

#: Bytes a follower may have waiting unsent before it is dropped (it reconnects and catches up).
BACKLOG = 512 * 1024
SENDMSG = hasattr(socket.socket, "sendmsg")  # not on Windows: there every chunk is buffered


class HeldSink:
    """A follower's connection, written to from any thread as chunks of its response.

    A chunk goes to the socket at once, from the writing thread, by one ``sendmsg`` of its
    parts as they are (the chunk's size line, the event's pieces, its end): nothing is joined
    or copied when the socket takes it all, as it does for a follower that keeps up. Only
    what it did not take is copied, into waitress's buffer, which its loop then sends."""

    def __init__(self, channel: HeldChannel) -> None:
        self.channel = channel
        self.lock = threading.Lock()
        self.armed = False  # the response's headers are out: chunks may follow
        self.early: list[bytes] = []
        self.gone = False
        self.on_gone: Callable[[], None] = lambda: None

    def send(self, *parts: bytes) -> bool:
        size = 0
        for part in parts:
            size += len(part)
        chunk = (b"%X\r\n" % size, *parts, b"\r\n")
        with self.lock:
            if self.gone or not self.channel.connected:
                self.gone = True
                return False
            if not self.armed:
                self.early.append(b"".join(chunk))
                return True
            if self.channel.total_outbufs_len > BACKLOG:
                self._close()  # a follower this far behind reconnects and is caught up
                return False
            try:
                # The loop flushes held channels under the same lock (``handle_write``).
                with self.channel.outbuf_lock:
                    left = self._write(chunk)
            except (ClientDisconnected, OSError):
                self._close()
                left = 1
        if left:  # the loop sends the rest when the socket takes it (or closes the connection)
            self.channel.touched()
        return not self.gone

    def _write(self, chunk: tuple[bytes, ...]) -> int:
        """Write ``chunk`` after what waits in the buffer: straight to the socket when nothing
        waits, the rest into the buffer. Returns how many bytes the buffer now holds."""
        channel = self.channel
        sent = 0
        if not channel.total_outbufs_len and SENDMSG:
            try:
                sent = channel.socket.sendmsg(chunk)
            except (BlockingIOError, InterruptedError):
                sent = 0
            if sent:  # what keeps waitress from closing the connection as idle
                channel.last_activity = time.time()
        rest = _after(chunk, sent)
        if rest:
            channel.write_soon(rest)
        return int(channel.total_outbufs_len)

    def arm(self) -> None:
        """The response's headers and first bytes are written: what waited follows them."""
        with self.lock:
            self.armed = True
            for chunk in self.early:
                self.channel.write_soon(chunk)
            self.early = []

    def close(self) -> None:
        with self.lock:
            self._close()
        self.channel.touched()

    def _close(self) -> None:
        self.gone = True
        self.channel.will_close = True

    def lost(self) -> None:
        """The loop dropped the connection (called holding the channel's buffers' lock, which
        ``send`` takes inside ``self.lock``: so not taking it here)."""
        self.gone = True
        self.on_gone()


def _after(parts: tuple[bytes, ...], sent: int) -> bytes:
    """The bytes of ``parts`` after the first ``sent``."""
    for at, part in enumerate(parts):
        if sent < len(part):
            return part[sent:] + b"".join(parts[at + 1 :])
        sent -= len(part)
    return b""


class HeldTask(WSGITask):  # type: ignore[misc]
    """A request whose view may take the connection over (``environ[HOLD]``): then its
    response ends without the last chunk and the connection stays open."""

    held: HeldSink | None = None

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ[HOLD] = self.hold
        return environ

    def hold(self) -> HeldSink:
        self.held = HeldSink(self.channel)
        return self.held

    def finish(self) -> None:
        if self.held is not None and not self.chunked_response:
            self.held.gone = True  # the view answered otherwise (an error page): no stream
            self.held = None
        if self.held is None or not self.channel.connected:
            super().finish()
            return
        if not self.wrote_header:
            self.write(b"")
        self.close_on_finish = False  # the stream goes on: no last chunk, no close
        self.channel.held = self.held
        self.held.arm()


class HeldChannel(HTTPChannel):  # type: ignore[misc]
    """Waitress's connection, able to be held open as a follower's stream."""

    task_class = HeldTask
    held: HeldSink | None = None

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        loop = getattr(self.server, "held_loop", None)
        if loop is not None:  # a new connection: asked at the next turn
            loop.touch(self._fileno)

    def touched(self) -> None:
        """Have the loop ask this connection what it waits for again, soon (any thread)."""
        loop = getattr(self.server, "held_loop", None)
        if loop is not None:
            loop.touch(self._fileno)
        self.server.pull_trigger()

    def received(self, data: bytes) -> bool:
        if self.held is not None:
            return True  # a stream takes no further request on its connection
        return bool(super().received(data))

    def handle_write(self) -> None:
        if self.held is None:
            super().handle_write()
            return
        # The followers' thread appends to the buffers meanwhile: flush under their lock.
        with self.outbuf_lock:
            super().handle_write()

    def del_channel(self, map: Any = None) -> None:
        fd = self._fileno
        super().del_channel(map)
        loop = getattr(self.server, "held_loop", None)
        if loop is not None:  # another connection may come with the same number
            loop.touch(fd)
        held, self.held = self.held, None
        if held is not None:
            held.lost()
