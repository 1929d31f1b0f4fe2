"""``allfives``: run the table app on the local network."""

from __future__ import annotations

import argparse
import gc
import io
import ipaddress
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="allfives", description="All Fives table companion")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the app with a production WSGI server")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="SQLite file path or SQLAlchemy URL")
    serve.add_argument("--threads", type=int, default=8, help="threads per process")
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes sharing the port, one per core, replaced if one dies (default: 1)",
    )
    backup = commands.add_parser("backup", help="write a consistent copy of the SQLite database")
    backup.add_argument("destination", help="file to write the copy to")
    backup.add_argument("--db", help="SQLite file path (default: the app's own)")
    args = parser.parse_args(argv)
    if args.command == "backup":
        return _backup(args.db, args.destination)
    return _serve(args.host, args.port, args.db, args.threads, max(1, args.workers))


def _serve(host: str, port: int, db: str | None, threads: int, workers: int) -> int:
    from .serving import serve_one, serve_workers

    config = {"DATABASE": db} if db else None
    app = _start(config)  # migrates the schema and makes the signing key, once
    if app is None:
        return 1

    public = str(app.config["PUBLIC_URL"])

    def ready() -> None:  # once the port is ours
        print(announcement(host, port, public))
        sys.stdout.flush()

    try:
        if workers == 1:
            serve_one(_warm(app, threads), host, port, threads, ready)
            return 0
        # Python runs one thread at a time per process: one process per core uses them all.
        # They share one listening socket; the database keeps them consistent.
        app.extensions["allfives_store"].close()
        serve_workers(lambda: _warm(_started(config), threads), host, port, threads, workers, ready)
    except OSError as error:  # the port is taken, or not ours to listen on
        return _fail(f"cannot listen on {host}:{port}: choose another --port or --host", error)
    return 0


def announcement(host: str, port: int, public: str = "", lan: str | None = None) -> str:
    """What ``allfives serve`` says once it listens on ``host``: the URL to open on a phone
    (``lan``, this machine's network address, when it listens on all of them), with its QR
    code; behind a proxy, the public URL; on loopback, that only this machine can open it (a
    phone's 127.0.0.1 is the phone itself)."""
    from ..web.security import lan_address

    if public:
        return f"All Fives is running on {host}:{port}; players open {public}\n{_qr(public)}"
    everywhere = host in ("0.0.0.0", "::", "")
    address = (lan or lan_address()) if everywhere else host
    url = f"http://{f'[{address}]' if ':' in address else address}:{port}/"
    if not _loopback(address):
        return f"All Fives is running. Open {url} on a phone on the same network.\n{_qr(url)}"
    if everywhere:
        return (
            f"All Fives is running at {url}, but this machine has no network address a phone "
            "could reach: join the phones' network (Wi-Fi), then start it again."
        )
    return (
        f"All Fives is running at {url}, on this machine only: open it in a browser here. "
        "A phone cannot reach it; to play from phones, run allfives serve without --host."
    )


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # a name
        return address == "localhost"


def _start(config: dict[str, Any] | None) -> Flask | None:
    """The app, or ``None`` after saying in one line why it cannot start and what to do."""
    from .. import create_app
    from ..config import StartupError

    try:
        return create_app(config)
    except StartupError as error:
        _fail(str(error), error.__cause__)
        return None


def _started(config: dict[str, Any] | None) -> Flask:
    app = _start(config)
    if app is None:
        raise SystemExit(1)
    return app


def _fail(sentence: str, cause: BaseException | None) -> int:
    """One line on stderr: what is wrong and what to do, then the real error it came from."""
    cause = getattr(cause, "orig", None) or cause  # the driver's error, without SQLAlchemy's
    detail = f" ({type(cause).__name__}: {_one_line(cause)})" if cause is not None else ""
    print(f"allfives: {sentence}{detail}", file=sys.stderr)
    return 1


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]


def _warm(app: Flask, threads: int = 8) -> Flask:
    """Warm the process before its first request (``warm.py``): compiled on demand, templates
    made each new process's first plays wait 0.2 to 0.6 s, and the first play and poll
    loaded catalogs and locale data.

    Then what the start made (modules, compiled templates, catalogs: about 120,000 objects,
    kept for the life of the process) is moved out of the garbage collector's sight, once its
    garbage is collected: else each full collection walks them all again, about 60 ms in the
    middle of whichever request set it off (the first of them often among the first plays),
    and now walks only what requests made."""
    from .warm import warm

    warm(app, threads)
    gc.collect()
    gc.freeze()
    return app


def _backup(db: str | None, destination: str) -> int:
    """Copy the database with SQLite's online backup: consistent even while the app writes."""
    import sqlite3
    from contextlib import closing
    from pathlib import Path

    from ..store import database_url

    if db is None:
        app = _start(None)
        if app is None:
            return 1
        db = app.config["DATABASE_URL"]
    url = database_url(db)
    if not url.startswith("sqlite:///"):
        print("backup copies SQLite databases; for PostgreSQL use pg_dump", file=sys.stderr)
        return 2
    source_path = Path(url.removeprefix("sqlite:///"))
    if not source_path.exists():
        return _fail(f"there is no database at {source_path}: give its path with --db", None)
    target = Path(destination)
    if target.exists():
        return _fail(f"{target} exists already: choose a new file", None)
    if not target.parent.is_dir():
        return _fail(f"there is no folder {target.parent}: make it first, or choose another", None)
    try:
        with (
            closing(sqlite3.connect(source_path, timeout=30)) as source,
            closing(sqlite3.connect(target)) as copy,
        ):
            source.backup(copy)
    except (sqlite3.Error, OSError) as error:
        target.unlink(missing_ok=True)  # no half-written copy left to be taken for a backup
        return _fail(
            f"cannot copy {source_path} to {target}: check that the database can be read and "
            "the folder written, and that the disk has room",
            error,
        )
    print(f"backed up {source_path} to {target}")
    return 0


def _qr(url: str) -> str:
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


if __name__ == "__main__":
    raise SystemExit(main())
