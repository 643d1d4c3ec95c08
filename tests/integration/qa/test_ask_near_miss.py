"""A misspelt name through ``POST /v1/ask``: read, stated in ``assumptions``, answered with sources."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ragspine.api.app import create_local_app
from ragspine.api.deps import services as services_dep
from ragspine.bootstrap import Services


def test_a_misspelt_metric_is_answered_with_the_reading_stated(sample_services: Services) -> None:
    app = create_local_app()
    app.dependency_overrides[services_dep] = lambda: sample_services
    response = TestClient(app).post("/v1/ask", json={"question": "gross margn of hong kong 2025"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["route"], body["status"]) == ("structured", "found")
    assert body["slots"] == {"metric": ["GROSS_MARGIN"], "entity": ["ACME_HK"], "period": ["FY2025"],
                             "channel": ["TOTAL"]}
    assert body["assumptions"] == [{"slot": "metric", "value": "GROSS_MARGIN",
                                    "reason": "read 'gross margn' as gross margin (GROSS_MARGIN)"}]
    assert "(Assumed: read 'gross margn' as gross margin (GROSS_MARGIN).)" in body["answer"]
    assert "42.0 PCT" in body["answer"]
    assert body["sources"] == [{"doc": "ACME_FY2025_Review.pptx", "locator": "slide=3,table=1,row=毛利率,col=FY2025"}]
