"""Persistence: Piccolo tables, migrations and the queries the services need.

Piccolo's tooling finds its engine through the module named by ``PICCOLO_CONF``; ours is
``db.piccolo_conf``, which hands it the engine bound by the composition root (``db.engine``).
"""

import os

os.environ.setdefault("PICCOLO_CONF", "db.piccolo_conf")
