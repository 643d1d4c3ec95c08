"""CLI entry of the retrieval evaluation: ``.venv/bin/python tests/eval/run.py [--quick]``.

The same as ``python -m tests.eval.harness``; this file only puts the repository root on
``sys.path`` so it can be run by path.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.eval.harness import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
