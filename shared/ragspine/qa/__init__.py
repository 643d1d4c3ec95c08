"""Question answering: ``answer_question`` and its stages."""

from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerResult, AnswerStatus, Route

__all__ = ["AnswerResult", "AnswerStatus", "Route", "answer_question"]
