"""Every rulebook example and official ruling in tests/rulebook/*.yaml, played by one runner."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook import play_case

CASES = sorted((Path(__file__).parent / "rulebook").glob("*.yaml"))

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # LibYAML where there


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rulebook_case(path, tmp_path):
    case = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    assert case.get("rule") and case.get("steps"), "a case names its rule and has steps"
    play_case(case, tmp_path)
