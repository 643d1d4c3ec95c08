"""Curated vocabularies the descriptor generator combines (domains × tasks × variants)."""

from ragspine.workflows.scaffold.catalog.vocabulary.domains import DOMAINS
from ragspine.workflows.scaffold.catalog.vocabulary.tasks import TASKS
from ragspine.workflows.scaffold.catalog.vocabulary.terms import Domain, Task, Variant
from ragspine.workflows.scaffold.catalog.vocabulary.variants import VARIANTS

__all__ = ["DOMAINS", "TASKS", "VARIANTS", "Domain", "Task", "Variant"]
