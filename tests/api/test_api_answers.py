"""How the API's answers are written (``web/answers.py``): JSON in UTF-8, saying so."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from tests.tables import ApiTable


def test_names_beyond_ascii_are_sent_as_utf8_and_the_answer_says_its_charset(
    client: FlaskClient,
) -> None:
    game = ApiTable(client, ["José", "Zoë", "Bø"])
    for response in (client.get(f"/api/games/{game.id}"), client.get("/api/games/no-such-game")):
        assert response.headers["Content-Type"] == "application/json; charset=utf-8"
        assert response.is_json
    answer = client.get(f"/api/games/{game.id}").get_data()
    assert "José".encode() in answer and b"\\u00e9" not in answer
    # The same JSON as before, keys sorted and without spaces, ending in a newline.
    found = json.loads(answer)
    assert (
        answer.decode()
        == json.dumps(found, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
    )
    assert [player["name"] for player in found["players"]] == ["José", "Zoë", "Bø"]
