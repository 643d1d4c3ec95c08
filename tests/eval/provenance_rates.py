"""Both error rates of the provenance check, through the real OpenAI-compatible provider.

A loopback chat-completions server plays two models over ACME passages in Chinese, Japanese
and English: an inventing one (a figure absent from its prompt, in every surface form of
``tests.support.number_forms``, inside zh / ja / en / mixed sentences, cited or not) and
compliant ones (each passage restated with its numbers in another surface form). Reported:
invented caught = rejected inventions / inventions, compliant accepted = passed / compliant.

    .venv/bin/python -m tests.eval.provenance_rates            # the full grid, prints JSON
    .venv/bin/python -m tests.eval.provenance_rates --record   # and writes docs/evaluation.md's table
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from decimal import Decimal

from tools.measurements import EVALUATION, record, record_note

from ragspine.llm.openai_compat import OpenAICompatibleProvider
from ragspine.numbers import sourced_values
from ragspine.qa.answer import answer_question
from ragspine.qa.evidence import Evidence
from tests.fakes import chat_models
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.narrative import StaticRetriever, evidence
from tests.fakes.qa import make_qa
from tests.support.chat_server import chat_server
from tests.support.number_forms import spellings

PASSAGES = [
    evidence("2024财年香港营业收入下降7.4%，主要因为入境游客消费疲软，以及广东道三家门店关闭。"),
    evidence("2024财年中国内地营业收入增长11.9%，得益于线上渠道以及二线城市净增34家门店。", locator="heading=中国内地,para=1"),
    evidence("2025财年中国内地线上收入占营业收入的46%，会员人数达到12,000,000人。", doc="ACME_FY2025_MDA.docx"),
    evidence("この価格改定により、売上総利益率は前年から0.5ポイント回復しました。", doc="ACME_JP_2025_Report.md",
             locator="heading=価格改定,para=1"),
    evidence("香港では来店客が1,200人減少し、新たに2店舗を開設しました。", doc="ACME_JP_2025_Report.md",
             locator="heading=店舗と顧客,para=1"),
    evidence("FY2024 ACME_JP gross margin fell 2 points because the weak yen raised the cost of imported goods.",
             doc="ACME_FY2024_Review.pptx", locator="slide=4"),
    evidence("FY2024 ACME_HK visitors fell by 12,000 a month and three stores on Canton Road closed.",
             doc="ACME_FY2024_Review.pptx", locator="slide=3"),
    evidence("Online revenue reached 250 USD_M, and 34 net new stores opened in tier-2 cities.",
             doc="ACME_FY2025_Review.pptx", locator="slide=2"),
]
QUESTIONS = {"zh": "广东道的门店为什么关闭？", "ja": "広東道の店舗はなぜ閉鎖されたのですか？",
             "en": "Why did the Canton Road stores close?"}
INVENTED = [Decimal(v) for v in ("23", "9", "87", "480", "12345", "4.3", "12500", "350000000", "2000000000")]
SENTENCES = [
    "香港收入下滑是因为客流减少，共关闭了{n}家门店。", "営業利益は前年から{n}円増えました。",
    "Operating profit rose by {n} stores.", "HK revenue 下滑，因为 closed {n} 家 stores。",
]
CITE = "（来源：ACME_FY2024_MDA.docx heading=香港（ACME_HK）,para=1）"
COMPLIANT_VARIANTS = 4


@dataclass(frozen=True, slots=True)
class Rates:
    invented: int
    caught: int
    compliant: int
    accepted: int
    missed: tuple[str, ...]
    rejected: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {"invented": self.invented, "invented_caught": self.caught,
                "invented_caught_rate": round(self.caught / self.invented, 4),
                "compliant": self.compliant, "compliant_accepted": self.accepted,
                "compliant_accepted_rate": round(self.accepted / self.compliant, 4),
                "missed_examples": list(self.missed[:5]), "rejected_examples": list(self.rejected[:5])}

    def table(self) -> list[str]:
        """Both error rates as Markdown."""
        return ["| what the model wrote | answers | outcome wanted | got it |", "| --- | --- | --- | --- |",
                f"| a figure absent from its passages (every surface form, zh/ja/en/mixed, cited or not) "
                f"| {self.invented} | rejected | {self.caught} ({self.caught / self.invented:.1%}) |",
                f"| the passages' own figures restated in another form | {self.compliant} | accepted "
                f"| {self.accepted} ({self.accepted / self.compliant:.1%}) |"]


def _verdict(passage: Evidence, question: str, provider: OpenAICompatibleProvider) -> tuple[str, str]:
    qa = make_qa(InMemoryFactStore([]), retriever=StaticRetriever([passage]), llm=provider)
    result = answer_question(question, qa=qa)
    decisions = result.trace["decisions"]
    assert isinstance(decisions, list)
    return ("pass" if "provenance:pass" in decisions else "rejected"), result.answer


def measure(passages: list[Evidence] = PASSAGES, values: list[Decimal] = INVENTED) -> Rates:
    """Run the grid over ``passages`` and invented ``values`` (the full sets by default), counting both outcomes."""
    script = [""]
    invented = caught = compliant = accepted = 0
    missed: list[str] = []
    rejected: list[str] = []
    with chat_server(lambda messages: script[0]) as server:
        provider = OpenAICompatibleProvider(server.base_url, None, "local-eval", timeout_s=10.0)
        for passage in passages:
            known = sourced_values([passage.text, passage.context or ""])
            for value in values:
                if format(value.normalize(), "f") in known:
                    continue
                for written in spellings(value).values():
                    for index, sentence in enumerate(SENTENCES):
                        script[0] = sentence.format(n=written) + (CITE if index % 2 else "")
                        verdict, _ = _verdict(passage, QUESTIONS["zh"], provider)
                        invented += 1
                        caught += verdict == "rejected"
                        if verdict != "rejected":
                            missed.append(script[0])
            for question in QUESTIONS.values():
                for offset in range(COMPLIANT_VARIANTS):
                    server.model = chat_models.restating(offset)
                    verdict, answer = _verdict(passage, question, provider)
                    server.model = lambda messages: script[0]
                    compliant += 1
                    accepted += verdict == "pass"
                    if verdict != "pass":
                        rejected.append(answer)
    return Rates(invented, caught, compliant, accepted, tuple(missed), tuple(rejected))


if __name__ == "__main__":
    rates = measure()
    print(json.dumps(rates.as_dict(), ensure_ascii=False, indent=2))
    if "--record" in sys.argv:
        record("provenance", rates.table(), command="python -m tests.eval.provenance_rates --record")
        print(record_note(EVALUATION, "provenance"), file=sys.stderr)
