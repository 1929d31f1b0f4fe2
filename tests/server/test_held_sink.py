"""A held stream's sink (``webapp/serve/held.py``) on a real socket: a change is written as
one chunk of the stream's chunked response, its parts handed to the socket as they are; what
the socket does not take waits in waitress's buffer and follows in order; a follower too far
behind is dropped (its page reconnects and is caught up); a phone that went away is noticed."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from waitress.adjustments import Adjustments

from webapp.serve.held import BACKLOG, HeldChannel, HeldSink


class Loop:
    """What the sink asks of waitress's server: to be woken, and the open channels."""

    def __init__(self) -> None:
        self.woken = 0
        self.active_channels: dict[int, Any] = {}

    def pull_trigger(self) -> None:
        self.woken += 1


@pytest.fixture
def held() -> Iterator[tuple[HeldSink, socket.socket, Loop]]:
    """A sink on one end of a socket pair whose send buffer is small; the phone's end."""
    ours, phone = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    loop = Loop()
    channel = HeldChannel(loop, ours, "phone", Adjustments(), map={})
    sink = HeldSink(channel)
    sink.arm()  # the response's headers went out: chunks follow
    yield sink, phone, loop
    phone.close()
    ours.close()


def chunk(data: bytes) -> bytes:
    return b"%X\r\n%s\r\n" % (len(data), data)


def read_all(phone: socket.socket, sink: HeldSink, expected: int) -> bytes:
    """Read what the phone is sent, letting the loop flush the buffer as it would."""
    phone.settimeout(2)
    got = b""
    while len(got) < expected:
        if sink.channel.total_outbufs_len:
            sink.channel.handle_write()  # the loop's turn: what waited goes out
        got += phone.recv(65536)
    return got


def test_a_change_is_one_chunk_of_its_parts_sent_at_once(
    held: tuple[HeldSink, socket.socket, Loop],
) -> None:
    sink, phone, loop = held
    assert sink.send(b'id: 2\nevent: change\ndata: <input value="', b"TOKEN", b'">\n\n')
    expected = chunk(b'id: 2\nevent: change\ndata: <input value="TOKEN">\n\n')
    phone.settimeout(2)
    assert phone.recv(65536) == expected
    assert sink.channel.total_outbufs_len == 0
    assert loop.woken == 0  # the socket took it all: the loop was not woken


def test_what_the_socket_does_not_take_follows_in_order(
    held: tuple[HeldSink, socket.socket, Loop],
) -> None:
    """Three changes bigger than the socket's buffer, sent before the phone reads any: each
    arrives whole and in order, the second and third after what was left of the first."""
    sink, phone, loop = held
    changes = [bytes([65 + n]) * 50_000 for n in range(3)]
    for data in changes:
        assert sink.send(data[:20_000], data[20_000:])
    assert sink.channel.total_outbufs_len > 0
    assert loop.woken > 0  # the loop sends the rest
    expected = b"".join(chunk(data) for data in changes)
    assert read_all(phone, sink, len(expected)) == expected


def test_a_follower_too_far_behind_is_dropped(
    held: tuple[HeldSink, socket.socket, Loop],
) -> None:
    """A phone that reads nothing: once more than BACKLOG bytes wait for it, the next change
    is refused and the connection closed (the page reconnects and is caught up at once)."""
    sink, _phone, _loop = held
    sent = 0
    while sink.send(b"x" * 64_000):
        sent += 1
        assert sent < 100
    assert sent * 64_000 > BACKLOG
    assert sink.gone and sink.channel.will_close
    assert not sink.send(b"later")


def test_a_phone_that_went_away_is_noticed_at_the_next_change(
    held: tuple[HeldSink, socket.socket, Loop],
) -> None:
    sink, phone, _loop = held
    phone.close()
    assert not sink.send(b"id: 2\nevent: change\ndata: x\n\n")
    assert sink.gone
    assert not sink.send(b"event: beat\ndata: -\n\n")


def test_what_comes_before_the_headers_are_out_follows_them(
    held: tuple[HeldSink, socket.socket, Loop],
) -> None:
    held_sink, phone, _loop = held
    early = HeldSink(held_sink.channel)
    assert early.send(b"first")  # the view has not finished: kept
    assert early.channel.total_outbufs_len == 0
    early.arm()
    assert read_all(phone, early, len(chunk(b"first"))) == chunk(b"first")
    assert early.send(b"second")
    assert phone.recv(65536) == chunk(b"second")
