"""The Knowledge Gateway keeps its published contract: schemathesis' engine over the app, in process.

The contract (``contracts/knowledge-gateway.openapi.json``) is the document the Gateway routes
validate against; the run is the one ``schemathesis run`` does over it (examples, coverage with
negative data and undeclared methods, fuzzing, and the stateful phase along the contract's
``links``: space create → get / update / documents list / file resource create; file resource
create → content upload; document upload → get / operation get), with every check, over the
ASGI app of the local service. Every call carries a valid service token; the user assertion
(all grants) is the only schema-valid value of its header, so negative cases send invalid ones.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.contract import load_contract
from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
from ragspine.settings import Settings
from tests.support.contract_run import ContractRun, run_engine
from tests.support.process_caches import close_knowledge_gateway

pytestmark = pytest.mark.slow  # schemathesis over every operation, every phase: minutes

schemathesis = pytest.importorskip("schemathesis")

MAX_EXAMPLES = 8
SEED = 3
CONFIG: dict[str, Any] = {
    # How fast Hypothesis generates data depends on the machine's load, not on the contract: a busy CI host
    # would fail the run for it.
    "suppress-health-check": ["too_slow"],
    "checks": {
        # A valid request may still name a space, document or operation that does not exist (404), lack
        # the grant for it (403), or lose an optimistic-lock race (409).
        "positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409"]},
        "negative_data_rejection": {"expected-statuses": ["400", "401", "403", "404", "405", "406", "409", "413",
                                                          "415", "422", "428"]},
    },
}


@pytest.fixture
def gateway_run(settings: Settings) -> Iterator[ContractRun]:
    from ragspine.api.app import create_local_app

    close_knowledge_gateway()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_local_app(settings)
        token, stored = new_token("schemathesis")
        get_knowledge_gateway().store.put_token(stored)
        assertion = sign_dev_assertion(dev_key(settings.data_dir), user="fuzzer", roles=["knowledge-admin"],
                                       departments=[],
                                       domains=["public", "internal", "confidential", "restricted"],
                                       issuer=settings.knowledge_assertion_issuer,
                                       audience=settings.knowledge_assertion_audience)
        contract = copy.deepcopy(load_contract())
        contract["components"]["parameters"]["XUserAssertion"]["schema"] = {"type": "string", "enum": [assertion]}
        config = {**CONFIG, "headers": {"Authorization": f"Bearer {token}"}, "seed": SEED, "workers": 1,
                  "generation": {"max-examples": MAX_EXAMPLES, "mode": "all"}}
        schema = schemathesis.openapi.from_dict(contract, config=schemathesis.Config.from_dict(config))
        schema.app = app
        schema.config.update(base_url="http://127.0.0.1")  # type: ignore[attr-defined]
        yield run_engine(schema)
    close_knowledge_gateway()


def test_the_gateway_keeps_its_contract_in_every_phase(gateway_run: ContractRun) -> None:
    assert not gateway_run.errors, "\n".join(gateway_run.errors)
    assert {"examples", "coverage", "fuzzing", "stateful"} <= set(gateway_run.phases), gateway_run.phases
    assert gateway_run.phases["stateful"] != "skip", "the stateful phase found no links to follow"
    assert not gateway_run.published - gateway_run.tested, sorted(gateway_run.published - gateway_run.tested)
    summary = sorted({f.split("\n", 1)[0] for f in gateway_run.failures})
    assert not gateway_run.failures, (f"{len(gateway_run.failures)} contract failure(s):\n" + "\n".join(summary)
                                      + "\n\n" + "\n\n".join(gateway_run.failures))
