"""A channel named outside the words of a share's whole is the part asked; inside them, the whole's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.share_wholes import channel_is_part
from tests.support.glossary import default_glossary

GLOSSARY = default_glossary()


@pytest.mark.parametrize("question", [
    "What percentage of Hong Kong revenue was online in 2023?",
    "What % of Japan revenue came from offline stores in FY2024?",
    "What share of revenue came from online in FY2024?",
    "Japan offline revenue as a percentage of Japan revenue in 2025",
    "2023年香港营业收入中线上占比是多少",
    "2024年中国内地营业收入中线上占比",
    "线上收入占2023年香港营业收入的比例是多少",
    "2023年度の香港の売上高に占めるオンラインの割合は？",
    "2024年度の日本の売上高のうちオンラインの割合",
    "2025财年内地线上渠道在总收入中占多大比例？",
    "2025年度、中国本土のオンライン売上は全体の何割を占めましたか？",
])
def test_the_channel_is_the_part(question: str) -> None:
    assert channel_is_part(question, GLOSSARY)


@pytest.mark.parametrize("question", [
    "What share of online revenue came from Japan in FY2024?",  # the group's online revenue is the whole
    "Japan as a percentage of online revenue in 2024",
    "2024年日本营业收入占线上营业收入的比例",
    "2024年度のオンライン売上高に占める日本の割合",
    "What share of group revenue came from Japan in FY2024?",  # no channel named
    "Hong Kong online revenue in 2023",  # no share asked
])
def test_the_channel_is_no_part_asked(question: str) -> None:
    assert not channel_is_part(question, GLOSSARY)


@given(entity=st.sampled_from(["Hong Kong", "Japan", "Mainland China"]),
       channel=st.sampled_from(["online", "offline", "e-commerce", "in-store"]),
       word=st.sampled_from(["percentage", "share", "proportion", "percent"]),
       verb=st.sampled_from(["was", "came from", "is", "did"]),
       year=st.integers(2023, 2025))
def test_the_whole_is_read_from_where_the_names_stand(entity: str, channel: str, word: str, verb: str,
                                                      year: int) -> None:
    assert channel_is_part(f"What {word} of {entity} revenue {verb} {channel} in {year}?", GLOSSARY)
    assert not channel_is_part(f"What {word} of {channel} revenue {verb} {entity} in {year}?", GLOSSARY)
