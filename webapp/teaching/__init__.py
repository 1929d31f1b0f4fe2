"""Teaching pages: learning mode on the game screen, the practice board (``practice.py``), the
guided first hand (``guided.py``, its script ``lesson.py``), and the rules page with its drawn
examples (``rules_page.py``).

Every count, point, placement and explanation is asked of ``webapp.rules`` (``Layout``,
``rules.practice.Board``, ``rules.explain``); these views only pick what to show, each page as
a frozen view model. The practice board and the guided hand store nothing: the practice board
lives in its URL.
"""

from flask import Blueprint

bp = Blueprint("teaching", __name__)

from . import guided, practice, rules_page  # noqa: E402  (their routes register on ``bp``)

__all__ = ["bp", "guided", "practice", "rules_page"]
