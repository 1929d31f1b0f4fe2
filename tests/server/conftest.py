"""A real ``allfives serve`` process on loopback, for race and crash tests, and what tests of
it as the open internet meets it share: raw requests, open sockets, servers with settings."""

from __future__ import annotations

import http.client
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One server process on a database file; can be killed with SIGKILL and started again.

    ``workers`` above 1 runs it under its process manager; ``env`` adds settings (rate limits
    are off unless ``env`` turns them on); what it logs goes to the file ``log``; ``files``
    starts it with that soft limit of open files (as a login shell often sets: 1,024)."""

    def __init__(
        self,
        db: str,
        workers: int = 1,
        env: dict[str, str] | None = None,
        log: str = "",
        files: int | None = None,
    ) -> None:
        self.db = db  # a SQLAlchemy URL
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.workers = workers
        self.env = {"ALLFIVES_RATE_LIMITS": "off", **(env or {})}
        self.log = log
        self.files = files

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it listens. One that exits before it listens (its
        port taken meanwhile by another program's connection: the port was only free when
        picked) is started again on another port."""
        for _ in range(3):
            process = self._spawn()
            deadline = time.monotonic() + 60  # (a busy machine: the warm-up takes seconds)
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                        return
                except OSError:
                    time.sleep(0.1)
            if process.poll() is None:
                raise RuntimeError("the server did not start within 60 s")
            self.port = free_port()
        raise RuntimeError(f"the server exited before listening, three times ({process.poll()})")

    def _spawn(self) -> subprocess.Popen[bytes]:
        env = {**os.environ, "ALLFIVES_SECRET_KEY": "test", **self.env}
        log = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "webapp.serve.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--threads",
                "8",
                "--workers",
                str(self.workers),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=self._limit_files if self.files else None,
        )
        if self.log:
            log.close()  # type: ignore[union-attr]
        return self.process

    def _limit_files(self) -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, hard))

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


def raise_fd_limit(needed: int) -> None:
    """Let this process (and the servers it starts, which inherit it) hold ``needed`` files."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"the open-file limit is {hard}; this test needs {needed}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def request(
    server: Server,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
    source: str | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection; ``source`` is the loopback address it comes from
    (any of 127.0.0.0/8), as another client on another address."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=timeout, source_address=(source, 0) if source else None
    )
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def children_of(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "server.log"


@pytest.fixture
def started(database_url: str, log: Path) -> Iterator[list[Server]]:
    """Servers a test starts with its own settings; all stopped at the end."""
    running: list[Server] = []
    yield running
    for server in running:
        server.stop()


def start(
    started: list[Server],
    db: str,
    log: Path,
    workers: int = 1,
    files: int | None = None,
    **env: str,
) -> Server:
    server = Server(db, workers=workers, env=env, log=str(log), files=files)
    started.append(server)
    server.start()
    return server


def sockets_held(server: Server) -> int:
    """How many sockets the server's processes hold open."""
    assert server.process is not None
    count = 0
    for pid in {server.process.pid, *children_of(server.process.pid)}:
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                count += os.readlink(fd).startswith("socket:")
            except OSError:
                continue
    return count


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url)
    running.start()
    yield running
    running.stop()
