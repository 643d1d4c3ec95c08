"""One rule for an integer in a query string or a path, on every route: 1 to 18 ASCII digits, nothing else.

``int()`` (and pydantic's lax int) also takes ``1_0``, ``+5``, `` 5``, ``5.0`` and Unicode
digits; a route that took them would follow a rule of its own. The Gateway's ``page`` and
``pageSize`` and the service's own routes (``ASCII_DIGITS``, in queries and in paths such as an execution's
id) read integers by ``ascii_int`` alone.
"""

from __future__ import annotations

from pydantic import BeforeValidator

MAX_INT_DIGITS = 18  # every integer a route takes in a query fits in 18 decimal digits
NOT_ASCII_DIGITS = f"must be an integer of 1 to {MAX_INT_DIGITS} ASCII digits"


def ascii_int(raw: str, *, max_digits: int = MAX_INT_DIGITS) -> int | None:
    """``raw`` as a non-negative integer when it is 1 to ``max_digits`` ASCII digits, else None.

    ``str.isdigit`` alone also accepts ``²`` and other Unicode digits that ``int`` then refuses,
    and ``int`` refuses more than 4,300 digits: both are the caller's mistake, never a crash.
    """
    if not (0 < len(raw) <= max_digits and raw.isascii() and raw.isdigit()):
        return None
    return int(raw)


def _ascii_digits(raw: object) -> object:
    if isinstance(raw, str) and ascii_int(raw) is None:
        raise ValueError(NOT_ASCII_DIGITS)
    return raw


# A query or path integer: ``Annotated[int, Query(ge=1, le=250), ASCII_DIGITS]`` (or ``Path(...)``; the bounds
# before the check, so the published schema states them as ``minimum`` and ``maximum``); anything else is a 400
# with the envelope.
ASCII_DIGITS = BeforeValidator(_ascii_digits)
