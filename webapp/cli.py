"""``allfives``: run the table app on the local network."""

from __future__ import annotations

import argparse
import io
import socket
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="allfives", description="All Fives table companion")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the app with a production WSGI server")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="SQLite file path or SQLAlchemy URL")
    serve.add_argument("--threads", type=int, default=8)
    backup = commands.add_parser("backup", help="write a consistent copy of the SQLite database")
    backup.add_argument("destination", help="file to write the copy to")
    backup.add_argument("--db", help="SQLite file path (default: the app's own)")
    args = parser.parse_args(argv)
    if args.command == "backup":
        return _backup(args.db, args.destination)
    return _serve(args.host, args.port, args.db, args.threads)


def _serve(host: str, port: int, db: str | None, threads: int) -> int:
    from waitress import serve

    from . import create_app

    app = create_app({"DATABASE": db} if db else None)
    url = f"http://{_lan_address() if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"All Fives is running. Open {url} on a phone on the same network.")
    print(_qr(url))
    sys.stdout.flush()
    serve(app, host=host, port=port, threads=threads, ident="allfives")
    return 0


def _backup(db: str | None, destination: str) -> int:
    """Copy the database with SQLite's online backup: consistent even while the app writes."""
    import sqlite3
    from pathlib import Path

    from .db import database_url

    if db is None:
        from . import create_app

        db = create_app().config["DATABASE_URL"]
    url = database_url(db)
    if not url.startswith("sqlite:///"):
        print("backup copies SQLite databases; for PostgreSQL use pg_dump", file=sys.stderr)
        return 2
    source_path = Path(url.removeprefix("sqlite:///"))
    if not source_path.exists():
        print(f"no database at {source_path}", file=sys.stderr)
        return 1
    target = Path(destination)
    if target.exists():
        print(f"{target} exists already: choose a new file", file=sys.stderr)
        return 1
    with sqlite3.connect(source_path, timeout=30) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    source.close()
    copy.close()
    print(f"backed up {source_path} to {target}")
    return 0


def _lan_address() -> str:
    """This machine's address on the local network, for phones to reach it."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        found = []
    for *_, address in found:
        if not str(address[0]).startswith("127."):
            return str(address[0])
    return "127.0.0.1"


def _qr(url: str) -> str:
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


if __name__ == "__main__":
    raise SystemExit(main())
