"""The index asked whether the documents state a question's words: a probe that informs a reading.

Scope screening, names the documents state and rows read as a metric each ask the index for the
passages a question may be in. A probe never fails an ask: an index that cannot be reached
(logged, with what the reading falls back to) or a question longer than a search may be leaves
the reading as it would be without an index.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ragspine.errors import InvalidInputError, ProviderUnavailableError

if TYPE_CHECKING:
    from ragspine.qa.evidence import Evidence
    from ragspine.qa.ports import NarrativeRetriever
    from ragspine.sensitivity import Sensitivity

logger = logging.getLogger(__name__)

PROBE_TOP_K = 10


def probe_passages(retriever: NarrativeRetriever, question: str, *, max_sensitivity: Sensitivity,
                   on_failure: str) -> list[Evidence] | None:
    """The top passages for ``question`` the caller may see, or None when the index cannot answer.

    ``on_failure`` is the warning logged when the index is unavailable ("scope probe failed; the
    refusal stands").
    """
    try:
        return retriever.retrieve(question, top_k=PROBE_TOP_K, max_sensitivity=max_sensitivity)
    except ProviderUnavailableError as exc:
        logger.warning(on_failure, extra={"error_code": exc.code})
        return None
    except InvalidInputError:  # longer than a search query may be (a question limit above the search's)
        return None
