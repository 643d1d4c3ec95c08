"""``DynamoKnowledgeStore``: the Gateway store in the DynamoDB knowledge table (``pk``/``sk``, GSI ``by_parent``).

Layout: spaces ``SPACE``/<id> (one partition: a Gateway has few), their codes ``SPACECODE``/<code>;
a document ``DOC#<id>``/``DOC`` (``parent`` = ``SPACE#<space>``), a version ``VER#<id>``/``VER``
(``parent`` = ``DOC#<document>``), an operation ``OP#<id>``/``OP`` (``parent`` = ``ROOT#<root>``)
with a copy under ``OPSPACE#<id>`` (``parent`` = ``SPACEOPS#<space>``) and a retry slot
``RETRY#<root>#<n>``; grants ``GRANT#<space>``/<type>#<principal>; tokens ``TOKEN#<id>`` with
``TOKENNAME#<name>``; file resources ``FILE#<id>``; audit ``AUDIT``/<time>#<uuid>.

A ``Change`` is one ``TransactWriteItems``: the document's ``lock_version`` (or the space's
``version``) is the condition, so of two writers with the same expected version one wins.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from ragspine.aws.dynamo_table import ConditionFailedError, DynamoTable, TransactionConflictError
from ragspine.errors import ConflictError
from ragspine.knowledge.codec import dump, load
from ragspine.knowledge.identity import StoredToken
from ragspine.knowledge.model import AuditEntry, Document, FileResource, GatewayOperation, Grant, Space, Version
from ragspine.knowledge.ports import Change

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

PARENT_INDEX = "by_parent"
_STALE = "the resource changed since it was read (or its id or code exists): read it again and retry"


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": _s(pk), "sk": _s(sk)}


def _put(pk: str, sk: str, body: str, *, parent: str | None = None, order: str = "", condition: str | None = None,
         values: dict[str, Any] | None = None, **numbers: int) -> dict[str, Any]:
    item: dict[str, Any] = {**_key(pk, sk), "body": _s(body)}
    if parent is not None:
        item.update(parent=_s(parent), created_key=_s(order))
    item.update({name: {"N": str(value)} for name, value in numbers.items()})
    put: dict[str, Any] = {"Item": item}
    if condition:
        put["ConditionExpression"] = condition
    if values:
        put["ExpressionAttributeValues"] = values
    return {"Put": put}


class DynamoKnowledgeStore:
    """The AWS ``KnowledgeStore``."""

    def __init__(self, table_name: str, *, client: DynamoDBClient | None = None, region: str | None = None,
                 endpoint_url: str | None = None, audit_retention_days: int = 0) -> None:
        # > 0: audit items carry `expiration` (epoch seconds), the table's TTL attribute, and DynamoDB deletes them.
        self._audit_retention_s = audit_retention_days * 86400
        self.table = DynamoTable(table_name, label="knowledge table", client=client, region=region,
                                 endpoint_url=endpoint_url)

    def _transact(self, items: list[dict[str, Any]], message: str = _STALE) -> None:
        for item in items:
            next(iter(item.values()))["TableName"] = self.table.name
        try:
            self.table.call("transact_write_items", TransactItems=items)
        except (ConditionFailedError, TransactionConflictError) as exc:  # a race lost is a conflict too
            raise ConflictError(message) from exc

    # --- unit of work ---------------------------------------------------------------------

    def commit(self, change: Change) -> None:
        """One transaction, conditional on the versions read."""
        items: list[dict[str, Any]] = []
        absent = "attribute_not_exists(pk)"
        if change.space is not None:
            space, expected = change.space, change.space_expected
            if expected is None:
                items.append(_put("SPACECODE", space.code, space.id, condition=absent))
                items.append(_put("SPACE", space.id, dump(space), condition=absent, version=space.version))
            else:
                items.append(_put("SPACE", space.id, dump(space), condition="version = :v",
                                  values={":v": {"N": str(expected)}}, version=space.version))
        if change.document is not None:
            document, lock = change.document, change.document_expected
            parent, order = f"SPACE#{document.space_id}", f"{document.created_at.isoformat()}#{document.id}"
            condition, values = (absent, None) if lock is None else ("lock_version = :v", {":v": {"N": str(lock)}})
            items.append(_put(f"DOC#{document.id}", "DOC", dump(document), parent=parent, order=order,
                              condition=condition, values=values, lock_version=document.lock_version))
        for version in change.versions:
            items.append(_put(f"VER#{version.id}", "VER", dump(version), parent=f"DOC#{version.document_id}",
                              order=f"{version.number:08d}"))
        for operation in change.operations:
            order = f"{operation.created_at.isoformat()}#{operation.id}"
            items.append(_put(f"OP#{operation.id}", "OP", dump(operation), parent=f"ROOT#{operation.root_id}",
                              order=order, condition=absent))
            items.append(_put(f"OPSPACE#{operation.id}", "OP", dump(operation),
                              parent=f"SPACEOPS#{operation.space_id}", order=order))
            items.append(_put(f"RETRY#{operation.root_id}#{operation.retry_no}", "RETRY", operation.id,
                              condition=absent))
        if items:
            self._transact(items)

    # --- reads ----------------------------------------------------------------------------

    def _get(self, pk: str, sk: str) -> str | None:
        item = self.table.call("get_item", TableName=self.table.name, Key=_key(pk, sk), ConsistentRead=True).get("Item")
        return str(item["body"]["S"]) if item else None

    def _children(self, parent: str) -> list[str]:
        items = self.table.paginate("query", TableName=self.table.name, IndexName=PARENT_INDEX,
                                    KeyConditionExpression="parent = :p", ExpressionAttributeValues={":p": _s(parent)})
        return [str(i["body"]["S"]) for i in sorted(items, key=lambda i: i["created_key"]["S"])]

    def space(self, space_id: str) -> Space | None:
        """The space with this id, or None."""
        body = self._get("SPACE", space_id)
        return load(Space, body) if body else None

    def spaces(self) -> list[Space]:
        """Every space, oldest first."""
        items = self.table.paginate("query", TableName=self.table.name, KeyConditionExpression="pk = :p",
                                    ExpressionAttributeValues={":p": _s("SPACE")}, ConsistentRead=True)
        return sorted((load(Space, i["body"]["S"]) for i in items), key=lambda s: (s.created_at, s.id))

    def document(self, document_id: str) -> Document | None:
        """The document with this id, or None."""
        body = self._get(f"DOC#{document_id}", "DOC")
        return load(Document, body) if body else None

    def documents(self, space_id: str) -> list[Document]:
        """The documents of a space, oldest first (the index is eventually consistent; each is re-read)."""
        found = [load(Document, body) for body in self._children(f"SPACE#{space_id}")]
        return [fresh for d in found if (fresh := self.document(d.id)) is not None]

    def version(self, version_id: str) -> Version | None:
        """The version with this id, or None."""
        body = self._get(f"VER#{version_id}", "VER")
        return load(Version, body) if body else None

    def versions(self, document_id: str) -> list[Version]:
        """The versions of a document, by number."""
        found = [load(Version, body) for body in self._children(f"DOC#{document_id}")]
        return [fresh for v in found if (fresh := self.version(v.id)) is not None]

    def operation(self, operation_id: str) -> GatewayOperation | None:
        """The Gateway operation with this id, or None."""
        body = self._get(f"OP#{operation_id}", "OP")
        return load(GatewayOperation, body) if body else None

    def operations(self, *, space_id: str | None = None, root_id: str | None = None) -> list[GatewayOperation]:
        """Operations of a space or of one root, oldest first."""
        parent = f"ROOT#{root_id}" if root_id is not None else f"SPACEOPS#{space_id}"
        return [load(GatewayOperation, body) for body in self._children(parent)]

    def save_operation(self, operation: GatewayOperation) -> None:
        """Replace a Gateway operation's body."""
        self.table.call("update_item", TableName=self.table.name, Key=_key(f"OP#{operation.id}", "OP"),
                        UpdateExpression="SET body = :b", ExpressionAttributeValues={":b": _s(dump(operation))})

    # --- file resources, grants, tokens, audit --------------------------------------------

    def put_file(self, resource: FileResource) -> None:
        """Store or replace a file resource."""
        self.table.call("put_item", TableName=self.table.name, Item={**_key(f"FILE#{resource.id}", "FILE"),
                                                                     "body": _s(dump(resource))})

    def file(self, resource_id: str) -> FileResource | None:
        """The file resource with this id, or None."""
        body = self._get(f"FILE#{resource_id}", "FILE")
        return load(FileResource, body) if body else None

    def put_grant(self, grant: Grant) -> None:
        """Store a grant (replacing the same principal's actions in that space)."""
        sk = f"{grant.principal_type.value}#{grant.principal}"
        self.table.call("put_item", TableName=self.table.name,
                        Item={**_key(f"GRANT#{grant.space_id}", sk), "body": _s(dump(grant))})

    def delete_grant(self, space_id: str, principal_type: str, principal: str) -> bool:
        """Remove a grant; whether it existed."""
        answer = self.table.call("delete_item", TableName=self.table.name,
                                 Key=_key(f"GRANT#{space_id}", f"{principal_type}#{principal}"), ReturnValues="ALL_OLD")
        return "Attributes" in answer

    def grants(self, space_id: str | None = None) -> list[Grant]:
        """Grants of a space and of every space (``*``), or all."""
        if space_id is None:
            items = self.table.paginate("scan", TableName=self.table.name, FilterExpression="begins_with(pk, :g)",
                                        ExpressionAttributeValues={":g": _s("GRANT#")}, ConsistentRead=True)
        else:
            items = []
            for space in dict.fromkeys((space_id, "*")):
                items += self.table.paginate("query", TableName=self.table.name, KeyConditionExpression="pk = :p",
                                             ExpressionAttributeValues={":p": _s(f"GRANT#{space}")},
                                             ConsistentRead=True)
        return [load(Grant, i["body"]["S"]) for i in items]

    def put_token(self, token: StoredToken) -> None:
        """Store a token record; its name is unique (both written in one transaction)."""
        body = f"{token.token_id}:{token.name}:{token.salt}:{token.digest}"
        self._transact([_put(f"TOKENNAME#{token.name}", "TOKEN", token.token_id, condition="attribute_not_exists(pk)"),
                        _put(f"TOKEN#{token.token_id}", "TOKEN", body, condition="attribute_not_exists(pk)")],
                       message=f"a service token named {token.name!r} exists: choose another name")

    def token(self, token_id: str) -> StoredToken | None:
        """The token record with this id, or None."""
        body = self._get(f"TOKEN#{token_id}", "TOKEN")
        if body is None:
            return None
        ident, rest = body.split(":", 1)
        name, salt, digest = rest.rsplit(":", 2)
        return StoredToken(ident, name, salt, digest)

    def append_audit(self, entry: AuditEntry) -> None:
        """Record one audited request."""
        item = {**_key("AUDIT", f"{entry.at.isoformat()}#{uuid.uuid4().hex}"), "body": _s(dump(entry))}
        if self._audit_retention_s:
            item["expiration"] = {"N": str(int(entry.at.timestamp()) + self._audit_retention_s)}
        self.table.call("put_item", TableName=self.table.name, Item=item)

    def audit(self, *, limit: int) -> list[AuditEntry]:
        """The latest entries, oldest first."""
        page = self.table.call("query", TableName=self.table.name, KeyConditionExpression="pk = :p",
                               ExpressionAttributeValues={":p": _s("AUDIT")}, ScanIndexForward=False, Limit=limit)
        return [load(AuditEntry, i["body"]["S"]) for i in reversed(page.get("Items", []))]
