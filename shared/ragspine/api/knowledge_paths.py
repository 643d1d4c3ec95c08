"""The ``gateway_id`` path convertor: a Gateway id in a path is one segment without a colon.

Contract ids match ``^[A-Za-z0-9._-]+$``, so a colon always starts an action
(``/documents/{documentId}:enable``). With Starlette's default segment (``[^/]+``),
``PATCH /documents/d1:enable`` reached the document update route as the id ``d1:enable`` (400)
instead of answering 405 with the action's ``Allow: POST``.
"""

from __future__ import annotations

from starlette.convertors import StringConvertor, register_url_convertor


class GatewayIdConvertor(StringConvertor):
    """Starlette's ``str`` segment, minus the colon."""

    regex = "[^/:]+"


register_url_convertor("gateway_id", GatewayIdConvertor())
