"""The built engine layer carries its shipped domain sealed: a cold start reads it without checking each file again."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.artifact.functions import runtime_packages
from tests.support.cfn import python312_dir

pytestmark = pytest.mark.slow  # runs the sam build output (tests/support/sam_build.py)

READ_THE_SHIPPED_DOMAIN = """
import json, sys
sys.path[:0] = json.loads(sys.argv[1])
from ragspine.domain.file_names import DOMAIN_FILES
from ragspine.domain.files import default_domain_dir, read_file
from ragspine.domain.seal import vouches_for
import ragspine
folder = default_domain_dir()
names = [n for n in sorted(DOMAIN_FILES) if (folder / n).is_file()]
vouched = {n: vouches_for(folder, n, (folder / n).read_text(encoding="utf-8")) for n in names}
read = {n: sorted(read_file(folder / n)) for n in names}
print(json.dumps({"package": ragspine.__file__, "vouched": vouched,
                  "schemas_loaded": "ragspine.domain.schemas" in sys.modules}))
"""


def test_the_built_layer_reads_its_shipped_domain_under_its_seal(sam_build: Path, tmp_path: Path) -> None:
    python = python312_dir()
    assert python is not None, "no python3.12 to run the build output in"
    engine = (sam_build / "EngineLayer" / "python").resolve()
    paths = [str(engine), str(runtime_packages(tmp_path / "runtime"))]
    done = subprocess.run([str(python / "python3.12"), "-I", "-B", "-c", READ_THE_SHIPPED_DOMAIN, json.dumps(paths)],
                          cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(done.stdout)
    assert Path(result["package"]).is_relative_to(engine)
    assert result["vouched"] and all(result["vouched"].values()), (
        f"the built layer's shipped domain is not sealed under its own rules: {result['vouched']}")
    assert result["schemas_loaded"] is False
