"""The ``allfives`` command refusing what it cannot do, as an operator meets it: one line on
what is wrong and what to do, a non-zero exit, no traceback (README, "Start-up errors")."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from webapp.store import open_store

from .conftest import free_port

Done = subprocess.CompletedProcess[str]


def allfives(*args: str, cwd: Path, prefix: tuple[str, ...] = ()) -> Done:
    """The command run as an operator runs it; ``prefix`` runs it under another command."""
    command = [*prefix, sys.executable, "-m", "webapp.serve.cli", *args]
    if args[0] == "serve":
        command += ["--host", "127.0.0.1", "--port", str(free_port())]
    return subprocess.run(
        command,
        env={**os.environ, "ALLFIVES_SECRET_KEY": "test", "ALLFIVES_DATABASE": ""},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def said_in_one_line(done: Done, sentence: str) -> str:
    assert done.returncode != 0, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("allfives: ") and sentence in lines[0], lines[0]
    assert "hunter2" not in done.stderr, "no password is printed"
    return lines[0]


def test_a_database_from_a_newer_version_is_one_line_and_no_start(
    database_url: str, tmp_path: Path
) -> None:
    """SQLite, and PostgreSQL in the CI's PostgreSQL run: it used to be 81 lines of traceback."""
    open_store(database_url).close()
    engine = create_engine(database_url)
    with engine.begin() as connection:  # as a later version's migration would leave it
        connection.execute(text("UPDATE alembic_version SET version_num = 'f00dfeed0001'"))
    engine.dispose()
    done = allfives("serve", "--db", database_url, cwd=tmp_path)
    line = said_in_one_line(done, "was last used by a newer version of All Fives")
    assert "f00dfeed0001" in line
    assert "is running" not in done.stdout


@pytest.mark.parametrize("port", ["99999", "abc", "0"])
def test_a_postgresql_url_with_a_bad_port_is_one_line(tmp_path: Path, port: str) -> None:
    url = f"postgresql+psycopg://allfives:hunter2@127.0.0.1:{port}/allfives"
    done = allfives("serve", "--db", url, cwd=tmp_path)
    said_in_one_line(done, f"the port in postgresql+psycopg://allfives:***@127.0.0.1:{port}/")


def test_a_database_folder_that_cannot_be_written_is_found_at_start(tmp_path: Path) -> None:
    """The database and its journal can be written, its folder cannot: the writers' lock file
    beside it could not be made, and every play was a 500 while the server ran on."""
    folder = tmp_path / "games"
    folder.mkdir()
    db = folder / "games.sqlite3"
    open_store(f"sqlite:///{db}").close()
    (folder / "games.sqlite3-writers").unlink(missing_ok=True)  # as a new folder would be
    # Another process has the database open, so its journal files stay beside it.
    holder = sqlite3.connect(db)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE held (x)")
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:  # root writes anywhere, unless it gives that power up
        prefix = ("setpriv", "--bounding-set=-dac_override,-dac_read_search")
    folder.chmod(0o555)
    try:
        done = allfives("serve", "--db", str(db), cwd=tmp_path, prefix=prefix)
    finally:
        folder.chmod(0o755)
        holder.close()
    said_in_one_line(done, f"cannot write to {folder}: the database's folder must be writable")
    assert "is running" not in done.stdout


def test_a_backup_into_a_missing_folder_or_onto_a_file_is_one_line_and_fails(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    open_store(f"sqlite:///{db}").close()
    missing = tmp_path / "missing" / "copy.sqlite3"
    done = allfives("backup", str(missing), "--db", str(db), cwd=tmp_path)
    said_in_one_line(done, f"there is no folder {missing.parent}: make it first")
    assert not missing.parent.exists()
    taken = tmp_path / "taken.sqlite3"
    taken.write_text("keep me")
    done = allfives("backup", str(taken), "--db", str(db), cwd=tmp_path)
    said_in_one_line(done, "exists already: choose a new file")
    assert taken.read_text() == "keep me"
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("not a database " * 100)
    copy = tmp_path / "copy.sqlite3"
    done = allfives("backup", str(copy), "--db", str(not_a_database), cwd=tmp_path)
    said_in_one_line(done, f"cannot copy {not_a_database}")
    assert not copy.exists(), "no half-written copy left"
    done = allfives("backup", str(copy), "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0 and copy.exists()
