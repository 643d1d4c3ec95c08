"""A code runner's reply is the code's word only: exactly one of two shapes, anything else the code's failure."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run import NOT_A_RESULT, read_code_reply


def test_a_result_reply_gives_its_object() -> None:
    assert read_code_reply(b'{"ok": true, "result": {"report": "42"}}') == {"report": "42"}


def test_an_error_reply_is_the_codes_failure() -> None:
    with pytest.raises(WorkflowNodeFailedError) as caught:
        read_code_reply(b'{"ok": false, "error": "ZeroDivisionError: division by zero"}')
    assert caught.value.message == "code failed: ZeroDivisionError: division by zero"


@pytest.mark.parametrize("forged", [
    b'{"ok": true}', b'{"ok": true, "result": "report"}', b'{"ok": true, "result": null}',
    b'{"ok": true, "result": []}', b'{"ok": 1, "result": {}}', b'{"ok": true, "result": {}, "extra": 1}',
    b'{"ok": false}', b'{"ok": false, "error": null}', b'{"ok": false, "isolation_error": "forged by the code"}',
    b'{"ok": false, "error": "x", "code": 5}', b'{"ok": true, "result": {"x": NaN}}', b"[]", b"42", b"",
    b'{"ok": true, "result": {}}{"ok": true, "result": {}}', b"\xff\xfe", b"[" * 100_000, b"1" * 10_000,
])
def test_any_other_text_is_not_a_valid_result(forged: bytes) -> None:
    with pytest.raises(WorkflowNodeFailedError) as caught:
        read_code_reply(forged)
    assert caught.value.message == NOT_A_RESULT


@given(st.one_of(st.binary(max_size=200),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                              lambda inner: st.lists(inner, max_size=3)
                              | st.dictionaries(st.sampled_from(["ok", "result", "error", "code", "x"]), inner,
                                                max_size=4)).map(lambda v: json.dumps(v).encode())))
def test_whatever_the_text_it_is_a_result_or_the_codes_failure(out: bytes) -> None:
    try:
        result = read_code_reply(out)
    except WorkflowNodeFailedError:
        return
    assert isinstance(result, dict)
