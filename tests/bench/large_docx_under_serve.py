"""``/v1/ask`` latency and the service's memory while ``ragspine serve`` embeds a large ordinary .docx.

A benchmark, not a test: nothing asserts on time. It writes an ordinary .docx within every limit
(60,000 paragraphs of 40 words drawn from 5,000 random words, seeded: 7.7 MB, 17.5 MB of XML,
about 64,000 chunks), starts ``ragspine serve`` on a fresh data folder, uploads the file through
the Gateway, and once the operation has succeeded asks ``--asks`` new questions (each one
embedded), one a second, while the background embedder gives the passages their vectors. The
service's resident memory is sampled every 0.2 s and read again 10 s after the last ask. It
prints one JSON object: the asks with nothing ingesting and during the backfill (median, p90,
max, each; the first three of them, the first asks after the activation, apart too), and the
resident memory before the upload, at its peak and settled.

    .venv/bin/python tests/bench/large_docx_under_serve.py [--asks 20] [--port 8799]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zipfile
from pathlib import Path
from typing import Any

import httpx

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
QUESTIONS = ("What does the report say about operating risks?", "How are the lease obligations measured?",
             "Which covenants apply to the bank loans?", "What was said about goodwill impairment?")
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.'
    'xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
    '2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
}


def write_docx(path: Path, paragraphs: int = 60_000) -> Path:
    """The large ordinary document: pseudo-random words, so it compresses as text does."""
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(5000)]
    body = "".join("<w:p><w:r><w:t>" + " ".join(rng.choice(words) for _ in range(40)) + "</w:t></w:r></w:p>"
                   for _ in range(paragraphs))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in _PARTS.items():
            archive.writestr(name, text)
        archive.writestr("word/document.xml", f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{_W}">'
                                              f"<w:body>{body}</w:body></w:document>")
    return path


def _status_mb(pid: int, field: str) -> int:
    with Path(f"/proc/{pid}/status").open(encoding="ascii") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith(field))


def _summary(seconds: list[float]) -> dict[str, Any]:
    ordered = sorted(seconds)
    return {"n": len(ordered), "median_s": round(statistics.median(ordered), 3),
            "p90_s": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 3),
            "max_s": round(ordered[-1], 3), "each_s": [round(s, 2) for s in seconds]}


class _Service:
    """``ragspine serve`` on a data folder, and its command line for tokens and assertions."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.env = dict(os.environ, RAGSPINE_DATA_DIR=str(data_dir))
        self.base = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(  # noqa: S603  # our own CLI, with this interpreter
            [sys.executable, "-m", "ragspine", "serve", "--host", "127.0.0.1", "--port", str(port)], env=self.env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def cli(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "ragspine", *args], env=self.env,  # noqa: S603
                              capture_output=True, text=True, check=True)
        return done.stdout.strip().splitlines()[-1]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(60)


def run(docx: Path, *, asks: int, port: int, work: Path) -> dict[str, Any]:
    service = _Service(work / "data", port)
    try:
        token = service.cli("knowledge", "token", "create", "--name", "bench-" + uuid.uuid4().hex[:6])
        client = httpx.Client(timeout=300)
        for _ in range(600):
            try:
                if client.get(service.base + "/health").status_code < 500:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        assertion = service.cli("knowledge", "assertion", "--user", "bench", "--roles", "knowledge-admin",
                                "--domains", "internal")
        headers = {"Authorization": f"Bearer {token}", "X-User-Assertion": assertion}
        gateway = service.base + "/internal/v1/knowledge"

        def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            reply = client.post(gateway + path, json=body, headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
            reply.raise_for_status()
            data: dict[str, Any] = reply.json()["data"]
            return data

        def ask(question: str) -> float:
            began = time.perf_counter()
            client.post(service.base + "/v1/ask", json={"question": question}).raise_for_status()
            return time.perf_counter() - began

        space = post("/spaces", {"code": f"bench-{uuid.uuid4().hex[:6]}", "name": "Bench",
                                 "profileCode": "enterprise-long-document",
                                 "defaultSecurityDomainCode": "internal"})["knowledgeSpaceId"]
        for question in QUESTIONS:  # models loaded
            ask(question)
        idle = [ask(f"{QUESTIONS[i % 4]} [{i}]") for i in range(12)]
        pid = service.process.pid
        before, peak, sampling = _status_mb(pid, "VmRSS"), [0], [True]

        def sample() -> None:
            while sampling[0]:
                peak[0] = max(peak[0], _status_mb(pid, "VmRSS"))
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        data = docx.read_bytes()
        resource = post(f"/spaces/{space}/file-resources", {"fileName": docx.name, "mimeType": DOCX,
                                                             "fileSize": len(data)})
        client.put(resource["uploadUrl"], content=data, headers={"Content-Type": DOCX}).raise_for_status()
        began = time.perf_counter()
        operation = post(f"/spaces/{space}/documents", {"fileResourceId": resource["fileResourceId"],
                                                        "documentName": "large"})["operationId"]
        while (status := client.get(f"{gateway}/operations/{operation}", headers=headers).json()["data"]["status"]) \
                not in ("SUCCEEDED", "FAILED", "CANCELLED"):
            time.sleep(0.5)
        ingest_s = time.perf_counter() - began
        time.sleep(3)  # the background embedder starts on the activated passages
        during = []
        for i in range(asks):
            during.append(ask(f"{QUESTIONS[i % 4]} ({i})"))
            time.sleep(1)
        time.sleep(10)
        settled = _status_mb(pid, "VmRSS")
        sampling[0] = False
        sampler.join()
        return {"document_bytes": len(data), "operation": status, "ingest_s": round(ingest_s, 1),
                "asks_idle": _summary(idle), "asks_during_backfill": _summary(during),
                "first_3_asks_after_activation": _summary(during[:3]),
                "resident_mb": {"before_upload": before, "peak": peak[0], "settled": settled},
                "load_average": [round(x, 2) for x in os.getloadavg()]}
    finally:
        service.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=20)
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        print(json.dumps(run(write_docx(work / "large.docx"), asks=args.asks, port=args.port, work=work), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
