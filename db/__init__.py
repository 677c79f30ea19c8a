"""Persistence: Piccolo tables, migrations and the queries the services need.

Piccolo finds its engine through the module named by ``PICCOLO_CONF``; ours is
``db.piccolo_conf``, which builds it from ``DATABASE_URL``.
"""

import os

os.environ.setdefault("PICCOLO_CONF", "db.piccolo_conf")
