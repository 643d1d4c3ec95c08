"""A five-chunk corpus in Chinese, English and Japanese for the OpenSearch adapter tests.

No chunk names a knowledge space: a search that names none never sees Gateway chunks (those
are in ``test_gateway_filters.py``).
"""

from __future__ import annotations

from ragspine.retrieval.model import Chunk
from ragspine.sensitivity import Sensitivity

DYNAMO_ZH = Chunk(
    chunk_id="d1-v1-c1", doc_id="doc-dynamo", source_locator="page=3,para=2",
    text="DynamoDB 单表设计与分区键选择：按访问模式建模。", title="单表设计", library="aws",
    sensitivity=Sensitivity.INTERNAL, version_id="v1", entity="ACME_CN", period="2024",
    document_id="kd-1", category="guide", tags=("dynamodb", "design"),
    version_label="1.0", product_code="DDB", heading_path=("架构", "数据"), position=2,
    parent_id="d1-v1-p1", next_id="d1-v1-c2",
)
LAMBDA_EN = Chunk(
    chunk_id="d2-v1-c1", doc_id="doc-lambda", source_locator="slide=7",
    text="Lambda cold start latency can be reduced with provisioned concurrency.",
    title="Cold starts", library="aws", sensitivity=Sensitivity.PUBLIC, version_id="v1",
    tags=("lambda", "performance"),
)
LAMBDA_JA = Chunk(
    chunk_id="d2-v2-c1", doc_id="doc-lambda", source_locator="slide=8",
    text="コールドスタートの対策としてプロビジョンド同時実行を使う。", title="コールドスタート",
    library="aws-ja", sensitivity=Sensitivity.INTERNAL, version_id="v2", tags=("lambda",),
)
SECRET_ZH = Chunk(
    chunk_id="d3-v1-c1", doc_id="doc-secret", source_locator="page=1,para=1",
    text="单表设计的机密补充说明：内部定价。", title="单表设计附录", library="aws",
    sensitivity=Sensitivity.RESTRICTED, version_id="v1",
)
REVENUE_EN = Chunk(
    chunk_id="d4-v1-c1", doc_id="doc-revenue", source_locator="sheet=Q3,row=4",
    text="Quarterly revenue commentary: cold weather lowered store traffic.", title="Q3 revenue",
    library="finance", sensitivity=Sensitivity.CONFIDENTIAL, version_id="v1",
)
CORPUS = (DYNAMO_ZH, LAMBDA_EN, LAMBDA_JA, SECRET_ZH, REVENUE_EN)
DIMENSION = 4
# One vector per corpus chunk, deliberately not unit length: the adapter normalises them.
VECTORS = ([3.0, 4.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 5.0])
