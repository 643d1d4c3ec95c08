"""Regular expressions the published schemas share with the checks behind them."""

from __future__ import annotations

# "Has a character that is not blank", the way Python's str.strip() sees blank: Unicode White_Space
# plus the separators U+001C..U+001F, which ``\s`` of other regex engines leaves out.
NOT_BLANK = r"[^\s\x1c-\x1f]"
