"""The direction a question takes for granted: one said, none, both, or a pace (no verdict)."""

from __future__ import annotations

import pytest

from ragspine.qa.premise import FELL, ROSE, assumed_direction


@pytest.mark.parametrize(("question", "direction"), [
    ("为什么2025年香港的毛利率下降了？", FELL),
    ("香港在2024财年收入为什么会下滑？", FELL),
    ("2025年に香港の粗利率が低下したのはなぜですか？", FELL),
    ("Why did Hong Kong's gross margin fall in 2025?", FELL),
    ("Why has revenue declined?", FELL),
    ("为什么2025年日本的毛利率回升了？", ROSE),
    ("2025年に日本の粗利率が回復したのはなぜですか？", ROSE),
    ("Why did Japan's gross margin recover in 2025?", ROSE),
    ("Why did online revenue grow in Mainland China?", ROSE),
    ("为什么香港的收入下降而毛利率上升？", None),  # both directions
    ("为什么2025年香港的收入增长放缓？", None),  # the pace of a change, not its direction
    ("Why did revenue growth slow in 2025?", None),
    ("香港团队为什么在2025财年审慎安排新的开店计划？", None),  # no direction at all
    ("Why did the team fallback to local regulars?", None),  # "fall" inside another word
])
def test_the_direction_a_question_assumes(question: str, direction: str | None) -> None:
    assert assumed_direction(question) == direction
