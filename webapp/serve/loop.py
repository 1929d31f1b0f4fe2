"""Waitress's loop, asking only the connections that may have changed what they wait for.

Waitress's own loop (``wasyncore.poll2``) makes a new ``poll()`` set at every turn: it asks
every connection whether it wants to read and to write, and registers each. A turn comes with
each request answered and each change written to a follower, and a process holding 2,000
followers' streams (:mod:`.held`) asked all 2,000 each time: under 1,000 tables with 4 phones
each it was the largest single cost of a worker (README, "Live updates").

Here the set is kept from turn to turn (``epoll`` on Linux, else ``poll``), changed only where
a connection's wish changed, and a connection that only waits for its phone (a held stream
between changes, a kept-alive connection between taps, which is nearly all of them) is
"quiet": not asked again until the poll says it is ready or something touches it
(:meth:`Loop.touch`): it was accepted, bytes were left in a stream's buffer, a stream was told
to close, it was dropped. A connection with a request in hand is asked at every turn until it
waits again (its request ends before the server's trigger is pulled), as the listening sockets
are. Every ``SWEEP`` seconds every connection is asked as waitress would, whatever was missed
(one closed as idle, for one).
"""

from __future__ import annotations

import contextlib
import select
import threading
import time
from typing import Any

from waitress.wasyncore import readwrite

READ = select.POLLIN | select.POLLPRI
WRITE = select.POLLOUT
SWEEP = 1.0  # seconds between two turns that ask every connection


def wish(channel: Any) -> int:
    """What ``channel`` waits for, as waitress's own loop asks it."""
    flags = READ if channel.readable() else 0
    if channel.writable() and not channel.accepting:
        flags |= WRITE
    return flags


class Loop:
    """Stands in for waitress's ``wasyncore`` module as a server's ``asyncore`` (only its
    ``loop`` is used): one per process, shared by its listening sockets' servers."""

    def __init__(self) -> None:
        self.epoll = hasattr(select, "epoll")
        self.poller: Any = select.epoll() if self.epoll else select.poll()
        self.registered: dict[int, tuple[Any, int]] = {}  # fd: (the channel, its flags)
        self.loud: set[int] = set()  # asked at every turn; the others are quiet until touched
        self.touched: list[int] = []  # appended from any thread
        self.lock = threading.Lock()
        self.swept = 0.0

    def touch(self, fd: int | None) -> None:
        """Ask the connection ``fd`` again at the next turn (any thread; then pull the
        server's trigger for the turn to come)."""
        if fd is not None:
            with self.lock:
                self.touched.append(fd)

    def loop(
        self, timeout: float = 30.0, use_poll: bool = True, map: Any = None, count: Any = None
    ) -> None:
        if not use_poll or not hasattr(select, "poll"):  # as waitress: select() without poll
            from waitress.wasyncore import loop

            loop(timeout, use_poll, map, count)
            return
        while map:
            self.turn(timeout, map)

    def turn(self, timeout: float, map: dict[int, Any]) -> None:
        """One turn: ask the connections that may have changed, wait, serve what is ready."""
        if not map:
            return
        with self.lock:
            touched, self.touched = self.touched, []
        loud = self.loud
        loud.update(touched)
        now = time.monotonic()
        if now - self.swept >= SWEEP:
            self.swept = now
            loud.update(map)
            for fd in self.registered.keys() - map.keys():  # closed meanwhile
                self._forget(fd)
        for fd in list(loud):
            channel = map.get(fd)
            if channel is None:  # closed: the kernel forgot it already
                loud.discard(fd)
                if fd in self.registered:
                    self._forget(fd)
                continue
            flags = wish(channel)
            if flags == READ and getattr(channel, "requests", None) == []:
                loud.discard(fd)  # waits for its phone, or for a touch
            self._register(fd, channel, flags)
        if timeout is None:
            timeout = -1
        elif not self.epoll:
            timeout = int(timeout * 1000)  # poll() counts milliseconds, epoll seconds
        try:
            ready = self.poller.poll(timeout)
        except InterruptedError:
            ready = []
        for fd, flags in ready:
            channel = map.get(fd)
            if channel is None:
                continue
            loud.add(fd)
            readwrite(channel, flags)

    def _register(self, fd: int, channel: Any, flags: int) -> None:
        known = self.registered.get(fd)
        if known is not None and known[0] is channel and known[1] == flags:
            return
        if known is not None:
            self._forget(fd)
        if flags:
            try:
                self.poller.register(fd, flags)
            except OSError:  # an fd that is no more: waitress's own turn will drop it
                return
            self.registered[fd] = (channel, flags)

    def _forget(self, fd: int) -> None:
        del self.registered[fd]
        with contextlib.suppress(OSError, KeyError, ValueError):  # closed: the kernel forgot it
            self.poller.unregister(fd)
