"""The composition roots: the `ticketing` command, the serving processes and the demo.

They assemble the layers (``rest``, ``graphql_api``, ``dashboard``, ``workers``, ``app``, ``db``);
nothing below imports them.
"""
