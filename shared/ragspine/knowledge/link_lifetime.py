"""How far ahead a signed link's expiry may lie: no further than the longest lifetime this service issues.

A link's signature proves who signed it, not when: with a leaked URL-signing key a link could be
made to last for years. A link whose expiry lies beyond the lifetime this service gives its links,
plus a little skew between the clocks of the instance that signed it and the one checking it, was
not issued by this service and is refused like a forged one, before its signature is checked (so
the refusal says nothing about the key).
"""

from __future__ import annotations

from datetime import datetime

CLOCK_SKEW_S = 30


def beyond_issued_lifetime(expires: int, *, now: datetime, lifetime_s: int) -> bool:
    """Whether a link expiring at ``expires`` (epoch seconds) outlives any link issued ``now`` for ``lifetime_s``."""
    return expires > int(now.timestamp()) + lifetime_s + CLOCK_SKEW_S
