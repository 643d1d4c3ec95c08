"""The page's static files and its Content-Security-Policy, without a web framework (the page Lambda serves them)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

WEB_DIR = Path(str(resources.files("ragspine") / "web"))
PAGES = {"/": "index.html", "/documents": "documents.html", "/feedback": "feedback.html"}
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".json": "application/json"}


def content_security_policy(connect: tuple[str, ...] = ()) -> str:
    """The page's own files only; its calls go to its own origin (and to ``connect``: the sign-in token endpoint)."""
    sources = " ".join(("'self'", *connect))
    return ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            f"connect-src {sources}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def static_file(path: str) -> Path | None:
    """The file under ``/ui/`` that ``path`` names, or None (outside the folder, hidden, or of another type)."""
    if not path.startswith("/ui/"):
        return None
    relative = path.removeprefix("/ui/")
    if not relative or any(part in ("", ".", "..") or part.startswith(".") for part in relative.split("/")):
        return None
    candidate = (WEB_DIR / relative).resolve()
    if WEB_DIR.resolve() not in candidate.parents or candidate.suffix not in CONTENT_TYPES or not candidate.is_file():
        return None
    return candidate
