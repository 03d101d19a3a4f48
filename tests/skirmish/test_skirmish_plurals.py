"""A skirmish report counts in plain English: "1 pin", "2 morale failures". An unpin
test's result keeps in the journal the words it was written with ("removes 2 pin(s)"):
verify compares it with a replay; it reads plainly when shown."""

from referee.table.skirmish import report


def test_an_unpin_result_recorded_with_pin_s_reads_plainly():
    t = {"record": 7, "side": "british", "order": "unpin B1", "facts": {}, "rule": "6.4",
         "dice": [{"die": 6, "value": 5}, {"die": 6, "value": 6}], "modifiers": [],
         "result": "B1 removes 2 pin(s), 0 left"}
    assert report.test_lines(t)[1] == "    D6=5 D6=6 -> B1 removes 2 pins, 0 left (6.4)"
    t["result"] = "B1 removes 1 pin(s), 1 left"
    assert report.test_lines(t)[1].endswith("-> B1 removes 1 pin, 1 left (6.4)")
