"""The 993 generated descriptors are deterministic, complete and consistent."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from ragspine.workflows.scaffold.catalog import EntryOrigin, RecipeKind, default_catalog
from ragspine.workflows.scaffold.catalog.generate import build_descriptors, main, render
from ragspine.workflows.scaffold.catalog.resources import DATA_DIR, DESCRIPTORS_FILE, PACKAGE
from ragspine.workflows.scaffold.catalog.vocabulary import DOMAINS, TASKS, VARIANTS

PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")


def committed_bytes() -> bytes:
    return resources.files(PACKAGE).joinpath(DATA_DIR, DESCRIPTORS_FILE).read_bytes()


class TestGeneratorDeterminism:
    def test_regenerating_gives_the_committed_file_byte_for_byte(self) -> None:
        assert render(build_descriptors()).encode("utf-8") == committed_bytes()

    def test_check_mode_reports_a_stale_file_and_write_mode_fixes_it(self, tmp_path: Path) -> None:
        # GIVEN a stale copy of the data file
        target = tmp_path / "descriptors.jsonl"
        target.write_text("{}\n", encoding="utf-8")
        # WHEN checked, then rewritten, then checked again
        stale = main(["--check", "--output", str(target)])
        written = main(["--output", str(target)])
        fresh = main(["--check", "--output", str(target)])
        # THEN only the first check fails and the rewrite equals the committed file
        assert (stale, written, fresh) == (1, 0, 0)
        assert target.read_bytes() == committed_bytes()

    def test_the_data_file_stays_under_one_and_a_half_megabytes(self) -> None:
        assert len(committed_bytes()) < 1_500_000


class TestDescriptors:
    def test_catalog_holds_993_descriptors_and_1000_entries_with_unique_ids(self) -> None:
        entries = default_catalog().entries()
        generated = [entry for entry in entries if entry.origin is EntryOrigin.GENERATED]
        assert len(generated) == 993
        assert len(entries) == len({entry.id for entry in entries}) == 1000

    def test_descriptors_and_templates_cover_every_combination_once(self) -> None:
        facets = [(entry.category, entry.task, entry.variant) for entry in default_catalog().entries()]
        assert len(set(facets)) == len(DOMAINS) * len(TASKS) * len(VARIANTS) == len(facets)

    def test_vocabulary_keys_and_keywords_are_unique(self) -> None:
        for terms in (DOMAINS, TASKS, VARIANTS):
            keys = [term.key for term in terms]
            assert len(keys) == len(set(keys))
            for term in terms:
                assert len(term.keywords) == len(set(term.keywords)), term.key

    def test_every_descriptor_is_localized_and_tagged(self) -> None:
        for entry in default_catalog().entries():
            assert all(text.strip() for text in (*entry.titles.values(), *entry.description.values())), entry.id
            assert entry.tags and len(entry.tags) == len(set(entry.tags)), entry.id
        titles = [entry.titles.en for entry in default_catalog().entries()]
        assert len(titles) == len(set(titles))

    def test_fixed_graph_recipes_only_name_their_own_inputs(self) -> None:
        for entry in default_catalog().entries():
            recipe = entry.recipe
            if recipe.kind is not RecipeKind.START_LLM_END:
                continue
            variables = {item.variable for item in recipe.inputs}
            assert set(PLACEHOLDER.findall(recipe.user_prompt)) <= variables, entry.id
            assert recipe.system_prompt and recipe.output, entry.id
            assert entry.node_kinds == ("start", "llm", "end"), entry.id

    def test_template_recipes_name_a_curated_template_and_take_its_graph(self) -> None:
        catalog = default_catalog()
        template_ids = {entry.id for entry in catalog.templates()}
        for entry in catalog.entries():
            if entry.recipe.kind is RecipeKind.TEMPLATE:
                assert entry.recipe.template in template_ids, entry.id
                template = catalog.get(str(entry.recipe.template))
                assert (entry.mode, entry.node_kinds) == (template.mode, template.node_kinds)

    def test_support_questions_reuse_the_support_chatflow(self) -> None:
        entry = default_catalog().get("gen-customer-service-qa-brief")
        assert entry.recipe.template == "tpl-support-chatflow"
        assert default_catalog().get("gen-legal-qa-brief").recipe.template == "tpl-document-qa"

    def test_no_upstream_url_is_shipped(self) -> None:
        assert b"http://" not in committed_bytes() and b"https://" not in committed_bytes()
