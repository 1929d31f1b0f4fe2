"""Running the app: the ``allfives`` command (``cli.py``), waitress in one process or
gunicorn's master keeping N waitress workers alive (``serving.py``, ``worker.py``)."""
