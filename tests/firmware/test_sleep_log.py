"""The tile's sleep log (hal/sleep_log.py): records kept in RAM until the tile wakes for good,
then the file rewritten whole, bounded, in order across boots."""

import os

import pytest
from hal import sleep_log
from hal.sleep_log import RECORD_BYTES, RECORDS, SleepLog, decode


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the log file is relative, as on a tile's root


def on_flash():
    with open(sleep_log.LOG_FILE, "rb") as f:
        return decode(f.read())


def false_wake(log, at, awake):
    log.woke("light", at)
    log.slept(at + awake)


def test_false_wakes_wait_in_ram_and_go_to_flash_with_the_wake_for_good():
    log = SleepLog()
    log.slept(100)  # the first DORMANT: no wake before it
    false_wake(log, 100, 12)
    false_wake(log, 112, 13)
    assert not os.path.exists(sleep_log.LOG_FILE)  # no flash write in a false wake
    log.woke("button", 125)
    log.up(460)
    got = [(r["seq"], r["source"], r["at_ms"], r["awake_ms"], r["woke"]) for r in on_flash()]
    assert got == [
        (0, "light", 100, 12, False),
        (1, "light", 112, 13, False),
        (2, "button", 125, 335, True),
    ]
    log.up(500)  # up again with nothing new: the file stays
    assert len(on_flash()) == 3


def test_a_later_boot_appends_after_the_last_seq_and_the_file_keeps_the_last_records():
    SleepLog().woke("usb", 5)
    first = SleepLog()
    first.woke("usb", 5)
    first.up(6)
    log = SleepLog()  # a new boot: its ring is empty, the file is not
    for k in range(RECORDS + 10):
        false_wake(log, 1000 + 20 * k, 14)
    log.woke("button", 9000)
    log.up(9400)
    records = on_flash()
    assert len(records) == RECORDS
    assert os.path.getsize(sleep_log.LOG_FILE) == RECORDS * RECORD_BYTES
    seqs = [r["seq"] for r in records]
    assert seqs == list(range(seqs[0], seqs[0] + RECORDS))  # in order, none missing
    assert records[-1]["source"] == "button" and records[-1]["woke"]
    # the ring kept the last RECORDS noted, the 11 before them lost, and their numbers with
    # them: after the first boot's seq 0 come 1 + 10 lost, then the RECORDS kept
    assert records[0]["seq"] == 12 and records[-1]["seq"] == 11 + RECORDS


def test_decode_leaves_out_what_makes_no_sense_and_a_torn_tail():
    log = SleepLog()
    false_wake(log, 10, 12)
    log.woke("usb", 30)
    log.up(31)
    with open(sleep_log.LOG_FILE, "rb") as f:
        data = bytearray(f.read())
    data[RECORD_BYTES - 2] = 9  # the first record's source code: none such
    assert [r["source"] for r in decode(bytes(data) + b"\x01\x02\x03")] == ["usb"]
    with open(sleep_log.LOG_FILE, "wb") as f:
        f.write(bytes(data) + b"\x01\x02\x03")  # a torn tail is not carried on
    log.woke("button", 50)
    log.up(60)
    assert [r["seq"] for r in on_flash()] == [1, 2]
    assert os.path.getsize(sleep_log.LOG_FILE) == 3 * RECORD_BYTES


def test_awake_time_is_capped_not_wrapped():
    log = SleepLog()
    log.woke("button", 0)
    log.up(100_000)
    assert on_flash()[0]["awake_ms"] == 0xFFFF
