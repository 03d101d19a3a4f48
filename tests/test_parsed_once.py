"""The tests' processes read the YAML of each text of game data once (conftest.py): every
text is still screened and parsed the first time, a refused text is refused every time,
each caller gets a value of its own, and a test that swaps the YAML library sees every
text parsed by it."""

from __future__ import annotations

import pytest

from referee.data import dataload, yamltext
from referee.data.paths import default_games_dir


def _counted(monkeypatch) -> list[str]:
    import conftest

    seen: list[str] = []
    real = conftest._LOAD_TEXT
    monkeypatch.setattr(conftest, "_LOAD_TEXT", lambda text: seen.append(text) or real(text))
    monkeypatch.setattr(conftest, "_PARSED", {})
    return seen


def test_a_text_is_parsed_once_and_each_caller_has_its_own_value(monkeypatch):
    seen = _counted(monkeypatch)
    text = (default_games_dir() / "ttlm" / "units.yaml").read_text(encoding="utf-8")
    first = dataload.load_text(text)
    first["spoilt"] = True
    second = dataload.load_text(text)
    assert "spoilt" not in second and second == yamltext.load_text(text)
    assert len(seen) == 1


def test_a_refused_text_is_refused_each_time(monkeypatch):
    seen = _counted(monkeypatch)
    for _ in range(2):
        with pytest.raises(yamltext.YamlRefusal):
            dataload.load_text("a: [1, 2\n")
    assert len(seen) == 2


def test_a_library_put_in_the_parsers_place_reads_every_text(monkeypatch):
    seen = _counted(monkeypatch)
    text = "a: 1\n"
    dataload.load_text(text)
    parsed = []
    real = yamltext.yaml.load
    monkeypatch.setattr(yamltext, "yaml", type("Swapped", (), {
        "__getattr__": lambda self, name: getattr(__import__("yaml"), name),
        "load": staticmethod(lambda t, Loader: parsed.append(t) or real(t, Loader=Loader))})())
    assert dataload.load_text(text) == {"a": 1} and parsed == [text]
    assert len(seen) == 2
