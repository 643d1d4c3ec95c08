"""Curated vocabularies the descriptor generator combines (domains × tasks × variants)."""

from ragspine.workflows.catalog.vocabulary.domains import DOMAINS
from ragspine.workflows.catalog.vocabulary.tasks import TASKS
from ragspine.workflows.catalog.vocabulary.terms import Domain, Task, Variant
from ragspine.workflows.catalog.vocabulary.variants import VARIANTS

__all__ = ["DOMAINS", "TASKS", "VARIANTS", "Domain", "Task", "Variant"]
