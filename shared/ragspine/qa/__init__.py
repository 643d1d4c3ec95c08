"""Question answering: ``ragspine.qa.answer.answer_question`` and its stages, one module each.

Nothing is re-exported here on purpose: importing a small module such as ``qa.result`` (the
API schemas need its enums) must not load the whole engine into a Lambda's cold start.
"""
