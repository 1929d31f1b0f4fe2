"""Pages that follow a game live, by Server-Sent Events: every change rendered once and written
to every follower.

A follower is one open game screen's stream (``/g/<id>/stream`` or ``/v/<id>/stream``): a
:class:`Sink` the server writes bytes to, and the :class:`Look` its page is drawn with (which
link, which language, the layout turned or not). When the store's change feed says a game
moved (a play of this process, or one heard from another process or app server through the
database, :mod:`webapp.store.feed`), one thread of this process renders the changed regions
once per look and writes the same bytes to each follower with that look; a follower's own
form token is put in place of the shared one; under several worker processes, a change is
rendered once for all of them (:mod:`webapp.web.rendered`). Nothing here holds a thread per
follower: how a sink holds its connection is the server's business (:mod:`webapp.serve.held`
with waitress; :class:`Queued`, a thread or greenlet per stream, with any other WSGI server).

Every ``STREAM_HEARTBEAT`` seconds (the app's setting, 20 by default) each follower gets a
``beat`` event: proxies and servers do not close a quiet stream, a follower whose connection
died is found and dropped, and the page, told the interval by the stream's hello, notices a
stream that went silent (a proxy or a network that holds the connection but passes nothing) and
opens another. An event's id is the game's revision: a phone that reconnects says the last one
it had (``Last-Event-ID``), and is sent the game as it is now if it moved meanwhile.

An event is written as parts (``Sink.send(*parts)``): the rendered event cut once at the shared
form token, with each follower's own token between the pieces, so that no follower's bytes are
copied or formatted on their own (:mod:`webapp.serve.held` hands the parts to the socket as
they are).
"""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import queue
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from flask import Flask

from ..store import Store
from ..store.feed import GONE
from .rendered import AGAIN, AGAIN_MOST, HEARD_WAIT, Rendered
from .security import signed

#: The environ key of the callable that takes a stream's connection over, when the server can
#: hold it without a thread (``webapp.serve.held``); absent under other servers.
HOLD = "allfives.hold"
HEARTBEAT = 20.0  # seconds between two beats on a quiet stream, unless the app says otherwise
RETRY_MS = 3000  # how soon a browser reconnects a stream that broke
#: A heartbeat: an event the page hears (a comment line would be invisible to it), with no id,
#: so that the revision a reconnecting page says stays the last change it had.
BEAT = b"event: beat\ndata: -\n\n"
#: The nonce of the form token a change is rendered with, replaced by each follower's own.
MARK_NONCE = "followers-own-token"
log = logging.getLogger(__name__)


class Sink(Protocol):
    """Where a follower's bytes go: ``send`` says False once the follower is gone."""

    def send(self, *parts: bytes) -> bool:
        """Write the bytes ``parts`` make together, as one piece of the stream."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Look:
    """How a follower's page is drawn: followers with the same look get the same bytes."""

    game_id: str  # the real id (what the change feed names)
    key: str  # the id in the follower's URL: the players' link or the watch link
    viewer: bool
    language: str
    turned: bool
    base_url: str


@dataclass(eq=False)
class Follower:
    look: Look
    sink: Sink
    seq: int  # the revision its page shows
    token: bytes  # its form token, in place of the shared one (``Followers.mark``)


#: A change to write: (when it is due, its order, game, revision, how many times it waited
#: for another worker's render of it).
Change = tuple[float, int, str, int, int]
#: Renders the game screen's regions as ``look`` shows them now: ``(revision, html)``.
Renderer = Callable[[Look], tuple[int, str]]


def event(seq: int, html: str, name: str = "change") -> bytes:
    """One Server-Sent Event: the revision as its id, ``html`` as its data, line by line."""
    lines = "".join(f"data: {line}\n" for line in html.splitlines() or [""])
    return f"id: {seq}\nevent: {name}\n{lines}\n".encode()


def opening(seq: int, beat: float = HEARTBEAT) -> bytes:
    """What a stream starts with: how soon to reconnect, and a first event saying it works
    (behind a proxy that buffers it never arrives, and the page keeps polling) and how often
    a beat comes (a page that hears nothing for longer opens the stream again)."""
    hello = json.dumps({"seq": seq, "beat": beat}, separators=(",", ":"))
    return f"retry: {RETRY_MS}\n".encode() + event(seq, hello, "hello")


def parts_for(pieces: list[bytes], token: bytes) -> list[bytes]:
    """An event cut at the shared form token (``pieces``), with ``token`` put between them."""
    if len(pieces) == 1:
        return pieces
    parts = [pieces[0]]
    for piece in pieces[1:]:
        parts += (token, piece)
    return parts


class Followers:
    """Every follower of every game in this process, and the one thread that writes to them."""

    def __init__(self, app: Flask, store: Store, render: Renderer) -> None:
        self.app = app
        self.store = store
        self.render = render
        self.games: dict[str, set[Follower]] = defaultdict(set)
        self.lock = threading.Lock()
        #: A change heard from the database may wait for the worker that made it to render it,
        #: when the workers share what they render (:mod:`.rendered`).
        self.changes: queue.SimpleQueue[Change] = queue.SimpleQueue()
        self.order = itertools.count()
        self.thread: threading.Thread | None = None
        self.renders = 0  # looks rendered, for tests and benchmarks
        self.mark = signed(MARK_NONCE, app.secret_key)  # a token this server issued
        self.beat = float(app.config.get("STREAM_HEARTBEAT", HEARTBEAT))
        folder = app.config.get("RENDERED_FOLDER")
        self.shared = Rendered(folder) if folder else None

    def __len__(self) -> int:
        with self.lock:
            return sum(len(each) for each in self.games.values())

    def follow(self, look: Look, sink: Sink, seq: int, now: int, token: str) -> Follower:
        """Start writing ``look``'s changes to ``sink``, whose page shows revision ``seq``; the
        game is at ``now``, so a page behind it is caught up at once."""
        follower = Follower(look, sink, seq, token.encode())
        with self.lock:
            self.games[look.game_id].add(follower)
            if self.thread is None or not self.thread.is_alive():
                self.store.feed.listen(self.changed, self.followed)
                self.thread = threading.Thread(target=self._run, name="allfives-push", daemon=True)
                self.thread.start()
        if now > seq:
            self.changed(look.game_id, now)
        return follower

    def leave(self, follower: Follower) -> None:
        with self.lock:
            followers = self.games.get(follower.look.game_id)
            if followers is not None:
                followers.discard(follower)
                if not followers:
                    del self.games[follower.look.game_id]

    def followed(self) -> list[str]:
        with self.lock:
            return list(self.games)

    def changed(self, game_id: str, seq: int, here: bool = True) -> None:
        """The change feed's listener (``here``: a change made in this process): cheap, any
        thread."""
        if game_id not in self.games:
            return
        # Heard from the database: the worker that made the change is given the first chance
        # to render it, when the workers share what they render.
        due = 0.0 if here or self.shared is None else time.monotonic() + HEARD_WAIT
        self.changes.put((due, next(self.order), game_id, seq, 0))

    # --- the writing thread ----------------------------------------------------------------

    def _run(self) -> None:
        beat_at = time.monotonic() + self.beat
        waiting: list[Change] = []  # a heap: the first due first
        while True:
            now = time.monotonic()
            if now >= beat_at:
                self._beat()
                beat_at = now + self.beat
            while waiting and waiting[0][0] <= now:
                self._try(heapq.heappop(waiting), waiting)
            until = min(beat_at, waiting[0][0]) if waiting else beat_at
            try:
                change = self.changes.get(timeout=max(0.0, until - now))
            except queue.Empty:
                continue
            if change[0] > time.monotonic():
                heapq.heappush(waiting, change)
            else:
                self._try(change, waiting)

    def _try(self, change: Change, waiting: list[Change]) -> None:
        _, _, game_id, seq, waited = change
        try:
            if not self._push(game_id, seq):  # another worker renders it now: soon again
                later = time.monotonic() + min(AGAIN * 2**waited, AGAIN_MOST)
                heapq.heappush(waiting, (later, next(self.order), game_id, seq, waited + 1))
        except Exception:  # one game's failure never stops the others' news
            log.exception("could not push a change of a game to its followers")

    def _push(self, game_id: str, seq: int) -> bool:
        """Write the game's change to revision ``seq`` to its followers behind it; False if
        some wait for another worker's render of it."""
        if seq == GONE:  # deleted: each screen loads the game again, which says so
            with self.lock:
                gone = list(self.games.get(game_id, ()))
            for follower in gone:
                follower.sink.send(event(follower.seq, "", "gone"))
                follower.sink.close()
                self.leave(follower)
            return True
        with self.lock:
            behind = [each for each in self.games.get(game_id, ()) if each.seq < seq]
        looks: dict[Look, list[Follower]] = defaultdict(list)
        for follower in behind:
            looks[follower.look].append(follower)
        mark = self.mark.encode()
        done = True
        for look, followers in looks.items():
            found = self._event(look, seq)
            if found is None:
                done = False
                continue
            now, data = found
            pieces = data.split(mark)  # once per look, not once per follower
            for follower in followers:
                if follower.seq >= now:
                    continue
                follower.seq = now
                if not follower.sink.send(*parts_for(pieces, follower.token)):
                    self.leave(follower)
        return done

    def _event(self, look: Look, seq: int) -> tuple[int, bytes] | None:
        """``look``'s change to revision ``seq`` (or later) as an event, and its revision:
        rendered by another worker, else here; None while another worker renders it."""
        if self.shared is not None:
            found = self.shared.get(look, seq)
            if found is not None:
                return found
            if self.shared.claimed(look, seq):
                return None
            self.shared.claim(look, seq)  # the others wait for this render, not make their own
        now, html = self.render(look)
        self.renders += 1
        data = event(now, html)
        if self.shared is not None:
            self.shared.put(look, now, data)
        return now, data

    def _beat(self) -> None:
        if self.shared is not None:
            self.shared.sweep()
        with self.lock:
            everyone = [each for followers in self.games.values() for each in followers]
        for follower in everyone:
            if not follower.sink.send(BEAT):
                self.leave(follower)


@dataclass(eq=False)
class Queued:
    """A sink for any WSGI server: the response's body is a generator that waits on a queue
    (a thread per stream under a threaded server, a greenlet under gevent)."""

    waiting: queue.SimpleQueue[bytes | None] = field(default_factory=queue.SimpleQueue)
    gone: bool = False

    def send(self, *parts: bytes) -> bool:
        if not self.gone:
            self.waiting.put(b"".join(parts))
        return not self.gone

    def close(self) -> None:
        self.gone = True
        self.waiting.put(None)

    def body(self, first: bytes, leave: Callable[[], None]) -> Iterator[bytes]:
        try:
            yield first
            while (data := self.waiting.get()) is not None:
                yield data
        finally:  # the server closes the generator when the client has gone
            self.gone = True
            leave()
