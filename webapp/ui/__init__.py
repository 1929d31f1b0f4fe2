"""Drawing on the server and the words shared by pages and the JSON API: tiles and layouts as
SVG (``tiles.py``, ``layouts.py``), the tile picker (``picker.py``), labels (``labels.py``).
"""
