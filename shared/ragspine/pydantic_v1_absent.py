"""pydantic's v1 package declared absent from a Lambda function's process, so FastAPI need not import it.

For every model a route declares (its body, its response), FastAPI asks whether it is a pydantic-1
model, and to ask it imports ``pydantic.v1``: pydantic's whole v1 package, about 25-30 ms of CPU in a
cold start of the ask function, for a question whose answer is always no (the engine defines pydantic-2
models only, and FastAPI refuses pydantic-1 ones). No pydantic-1 model can exist in a process where
``pydantic.v1`` cannot be imported, so once it is declared absent FastAPI's check finds the import
refused, which it reads as "not a pydantic-1 model": the same answer, without the import.

Only a Lambda handler declares it (``LAMBDA_TASK_ROOT`` set: the process is the function's alone); the
embedded service, the command line and the tests import as usual.
"""

from __future__ import annotations

import os
import sys
from typing import Any

REFUSED = "pydantic.v1"


class _RefusePydanticV1:
    """A finder on ``sys.meta_path`` that refuses ``pydantic.v1`` and its modules, and nothing else.

    A plain class with ``find_spec``, as the import system asks of a finder (``importlib.abc`` would cost
    an import of its own)."""

    @staticmethod
    def find_spec(fullname: str, path: Any = None, target: Any = None) -> None:
        """Refuse ``pydantic.v1`` and its modules; leave every other name to the next finder."""
        if fullname == REFUSED or fullname.startswith(REFUSED + "."):
            raise ModuleNotFoundError(f"{fullname} is declared absent from this Lambda function "
                                      "(ragspine.pydantic_v1_absent)", name=fullname)


def in_lambda() -> bool:
    """Whether this process is a Lambda function's (the runtime sets ``LAMBDA_TASK_ROOT``)."""
    return bool(os.environ.get("LAMBDA_TASK_ROOT"))


def declare_pydantic_v1_absent() -> bool:
    """Refuse ``pydantic.v1`` from now on unless it is already imported; whether it is refused.

    Once imported, the package is left alone: refusing it then would save nothing and could break
    whoever imported it.
    """
    if REFUSED in sys.modules:
        return False
    if not any(isinstance(finder, _RefusePydanticV1) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RefusePydanticV1())
    return True
