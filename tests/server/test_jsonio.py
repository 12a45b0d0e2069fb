"""The server's JSON encoding (orjson): the same text the standard library's compact form gives for views."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from dicetable.server.jsonio import JSONAnswer, dumps

_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


@given(_values)
def test_dumps_writes_what_the_compact_standard_encoding_writes(value):
    assert dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_non_ascii_stays_as_it_is_and_number_keys_become_strings():
    assert dumps({"name": "Zoë ⚀", 3: [1.5, None, True], "t": (1, 2)}) == '{"name":"Zoë ⚀","3":[1.5,null,true],"t":[1,2]}'


def test_the_http_answer_is_compact_utf8_json():
    answer = JSONAnswer({"detail": "é", "n": 1}, 409)
    assert answer.body == '{"detail":"é","n":1}'.encode()
    assert answer.status_code == 409 and answer.media_type == "application/json"
