"""A change rendered once for every worker process of one server, not once in each.

Under ``allfives serve --workers N`` a game's followers are spread over the workers. Were each
worker holding a follower of a look (:class:`~webapp.web.followers.Look`) to render that look
for every change, a table of 4 phones on 2 workers would cost nearly two renders of the screen
a play, the largest part of the followers' cost. So the workers of one server share a private
folder (made by the master, gone with it):

- a worker about to render a look's change says so first (a claim: the look's revision, in a
  file), and leaves the event's bytes there once rendered, one file per game and look (the
  last revision rendered, written whole or not at all);
- a worker with a change to write sends those bytes if they are of its revision or a later
  one; while another worker's claim says it renders them (for at most ``CLAIMED_FOR``
  seconds: a worker that stopped is not waited for), it looks again a moment later; else it
  claims and renders the change itself;
- a change heard from the database (made in another worker) waits ``HEARD_WAIT`` first, so
  that the worker that made it, which hears it at once, is the one to render it.

Whoever comes first renders, the others wait the few milliseconds that takes: a worker whose
followers' thread is behind (under more plays than it can serve) finds its changes rendered
by the other, and makes nobody wait for it.

A file is only of use for the moments after its change: those untouched for ``KEPT_FOR``
seconds are removed at each heartbeat.

Each app server has its own folder: one on another machine renders its own followers' changes
once too.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import threading
import time

#: Seconds a change heard from the database waits before it is looked at: PostgreSQL tells every
#: worker at the play's commit, as the playing worker hears it.
HEARD_WAIT = 0.02
#: Seconds before a change another worker claimed is looked for again: twice as long each
#: time, up to ``AGAIN_MOST`` (a render slowed by a busy machine is not asked after hundreds
#: of times a second).
AGAIN = 0.02
AGAIN_MOST = 0.16
CLAIMED_FOR = 1.0  # seconds a claim holds the other workers back at most
KEPT_FOR = 60.0  # seconds a rendered change or a claim is kept


class Rendered:
    """The events rendered by the workers of this server, in ``folder``."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.me = secrets.token_hex(8).encode()  # whose claim it is: this worker's, or not

    def _path(self, look: object) -> str:
        """The file of ``look`` (a frozen dataclass naming the game and how it is drawn)."""
        name = hashlib.blake2b(repr(look).encode(), digest_size=16).hexdigest()
        return os.path.join(self.folder, name)

    def get(self, look: object, seq: int) -> tuple[int, bytes] | None:
        """The event ``look`` was last rendered as, with its revision, if that is ``seq`` or
        later; None when no worker rendered it that far."""
        return _read(self._path(look), seq)

    def put(self, look: object, seq: int, event: bytes) -> None:
        """Leave ``look``'s event at revision ``seq`` for the other workers (a folder that
        cannot be written only costs them a render of their own)."""
        _write(self._path(look), b"%d\n" % seq + event)

    def claim(self, look: object, seq: int) -> None:
        """Say that this worker renders ``look``'s change to revision ``seq`` now."""
        _write(self._path(look) + CLAIM, b"%d\n%s" % (seq, self.me))

    def claimed(self, look: object, seq: int) -> bool:
        """Whether another worker said, not long ago, that it renders ``look``'s change to
        revision ``seq`` or a later one now."""
        path = self._path(look) + CLAIM
        try:
            fresh = os.stat(path).st_mtime > time.time() - CLAIMED_FOR
        except OSError:
            return False
        found = _read(path, seq) if fresh else None
        return found is not None and found[1] != self.me

    def sweep(self) -> None:
        """Remove what is too old to be of use to anyone."""
        oldest = time.time() - KEPT_FOR
        with contextlib.suppress(OSError), os.scandir(self.folder) as found:
            for entry in found:
                with contextlib.suppress(OSError):
                    if entry.stat().st_mtime < oldest:
                        os.unlink(entry.path)


CLAIM = ".claim"


def _read(path: str, seq: int) -> tuple[int, bytes] | None:
    """The revision the file at ``path`` starts with and what follows, if that is ``seq`` or
    later."""
    try:
        with open(path, "rb") as kept:
            data = kept.read()
    except OSError:
        return None
    head, _, rest = data.partition(b"\n")
    if not head.isdigit() or int(head) < seq:
        return None
    return int(head), rest


def _write(path: str, data: bytes) -> None:
    """``data`` as the file at ``path``, whole or not at all for a worker reading it meanwhile
    (a folder that cannot be written: nothing, and nothing half-written is left)."""
    fresh = f"{path}.{os.getpid()}.{threading.get_ident()}"
    try:
        with open(fresh, "wb") as kept:
            kept.write(data)
        os.replace(fresh, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(fresh)
