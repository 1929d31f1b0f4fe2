"""A screen following a game asks every 2 s whether anything changed: against a real server,
the "nothing changed" answer keeps the connection open, so a phone asks on one connection all
evening, and a change is still answered in full on that same connection."""

from __future__ import annotations

import http.client

from tests.server.conftest import Server

HX = {"HX-Request": "true"}


def test_a_poll_that_finds_nothing_changed_keeps_the_connection(server: Server) -> None:
    status, game = server.call("POST", "/api/games", {"players": ["Ana", "Ben", "Cy"]})
    assert status == 201
    game_id, view_id, seq = game["id"], game["view_id"], game["seq"]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        for path in (f"/g/{game_id}/poll?seq={seq}", f"/v/{view_id}/poll?seq={seq}") * 3:
            connection.request("GET", path, headers=HX)
            response = connection.getresponse()
            assert response.read() == b""
            assert response.status == 200
            assert response.getheader("Content-Length") == "0"
            assert response.getheader("Connection") != "close"
            assert not response.will_close  # http.client would open a new one otherwise
        sock = connection.sock
        assert sock is not None
        # Another phone starts the hand: the next poll on the same connection brings it.
        started = {"seq": seq, "type": "start_hand", "leader": 0}
        assert server.call("POST", f"/api/games/{game_id}/actions", started)[0] == 200
        connection.request("GET", f"/v/{view_id}/poll?seq={seq}", headers=HX)
        response = connection.getresponse()
        body = response.read().decode()
        assert response.status == 200
        assert f'data-seq="{seq + 1}"' in body and 'id="board"' in body
        assert connection.sock is sock  # the very same connection all along
    finally:
        connection.close()


def test_a_poll_for_no_game_or_an_unknown_host_is_answered_by_the_app(server: Server) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", "/g/nosuchgame/poll?seq=0", headers=HX)
        response = connection.getresponse()
        assert response.status == 404  # the app's page, counted by the "no such game" limit
        assert "Go to your games" in response.read().decode()
        connection.request("GET", "/g/nosuchgame/poll?seq=0", headers={**HX, "Host": "evil.test"})
        response = connection.getresponse()
        response.read()
        assert response.status == 400
    finally:
        connection.close()
