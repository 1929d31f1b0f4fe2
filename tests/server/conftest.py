"""A real ``allfives serve`` process on loopback, for race and crash tests."""

from __future__ import annotations

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
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 30 s")

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


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url)
    running.start()
    yield running
    running.stop()
