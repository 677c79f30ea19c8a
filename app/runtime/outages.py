"""One log line when a dependency goes away and one when it is back, however many of a
process's parts meet it meanwhile (the live hub listening and publishing, the rate limiter on
every request): an outage of Redis is two lines in the log of ``ticketing serve``, not a
traceback a second."""

from __future__ import annotations

import logging


class Outage:
    """The state of one dependency as this process last met it."""

    def __init__(self, name: str, consequence: str, logger: logging.Logger) -> None:
        self.name = name
        self.consequence = consequence
        """What the process does without it, said in the line of its going away."""
        self.logger = logger
        self.down = False

    def failed(self, error: BaseException) -> None:
        """A part of the process could not reach it: logged only if it was up until now."""
        if not self.down:
            self.down = True
            reason = str(error).strip() or type(error).__name__
            self.logger.warning("%s is unavailable (%s): %s", self.name, reason, self.consequence)

    def answered(self) -> None:
        """A part of the process reached it: logged only if it was down until now."""
        if self.down:
            self.down = False
            self.logger.info("%s is back", self.name)


REDIS = Outage(
    "Redis",
    "live notifications are not delivered and rate limits are not enforced until it is back; "
    "trying again every second",
    logging.getLogger("ticketing.redis"),
)
"""Redis as a serving process meets it (``app.runtime.live``, ``app.runtime.rate_limits``)."""
