"""Fetching the pinned binaries on first use (host_tools.fetch, host_tools.emu.images), from a
local server standing in for the real sites (tests/pinned_server.py): a first use fetches and
checks, a second fetches nothing, a wrong or cut-off file leaves nothing behind, and offline
says what is missing and how to supply it. The emulated-tile side (`blinks emu` booting from
what it fetched) is in tests/emu/test_emu_uf2.py."""

import hashlib
import os

import pytest
from pinned_server import FileServer, bootrom_ts, isolate, pin_like, serve_pins

from host_tools import cli, pins
from host_tools.bridge import uf2
from host_tools.emu import images
from host_tools.fetch import FetchError, fetch

FIRMWARE = uf2.write_blocks({0x10000000: bytes(range(256))}, uf2.RP2040)  # a UF2, small
BOOTROM = hashlib.sha256(b"rom").digest() * 512  # 16 KB


@pytest.fixture
def cache(monkeypatch, tmp_path):
    return isolate(monkeypatch, tmp_path)


@pytest.fixture
def server(monkeypatch):
    with FileServer({}) as s:
        serve_pins(monkeypatch, s, FIRMWARE, BOOTROM)
        yield s


def leftovers(folder):
    """Files in the cache folder but its lock: what a failed fetch must not leave."""
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder) if n != ".fetch.lock")


def test_first_use_fetches_both_checks_them_and_a_second_use_fetches_nothing(cache, server, capsys):
    fw = images.firmware_path(fetch=True)
    rom = images.bootrom_path(fetch=True)
    assert fw == str(cache / pins.MICROPYTHON.filename)
    assert rom == str(cache / pins.BOOTROM.filename)
    with open(fw, "rb") as f:
        assert f.read() == FIRMWARE
    with open(rom, "rb") as f:
        assert f.read() == BOOTROM  # decoded from the TypeScript source, not run
    said = capsys.readouterr().err
    for pin in (pins.MICROPYTHON, pins.BOOTROM):  # what, from where, under which licence
        assert f"Fetching {pin.what}" in said and pin.url in said and pin.licence in said
    assert "MIT" in said and "BSD-3-Clause" in said
    assert server.requests == {"/RPI_PICO.uf2": 1, "/bootrom.ts": 1}
    assert images.firmware_path(fetch=True) == fw and images.bootrom_path(fetch=True) == rom
    assert server.requests == {"/RPI_PICO.uf2": 1, "/bootrom.ts": 1}  # nothing fetched again
    assert "Fetching" not in capsys.readouterr().err
    assert leftovers(cache) == sorted([pins.MICROPYTHON.filename, pins.BOOTROM.filename])


def test_a_file_that_does_not_match_its_pin_is_refused_with_both_hashes_and_nothing_is_kept(
    cache, server
):
    server.files["/RPI_PICO.uf2"] = FIRMWARE[:-1] + b"!"  # changed upstream
    with pytest.raises(FetchError) as failed:
        images.firmware_path(fetch=True)
    message = str(failed.value)
    assert pins.MICROPYTHON.sha256 in message
    assert hashlib.sha256(server.files["/RPI_PICO.uf2"]).hexdigest() in message
    assert "nothing was kept" in message and "blinks fetch --firmware --from FILE" in message
    assert leftovers(cache) == []


def test_a_bootrom_source_that_is_not_what_was_expected_is_refused_and_nothing_is_kept(
    cache, server
):
    server.files["/bootrom.ts"] = b"export const x = 1;\n"
    with pytest.raises(FetchError, match="not the source expected.*Uint32Array"):
        images.bootrom_path(fetch=True)
    server.files["/bootrom.ts"] = bootrom_ts(BOOTROM).replace(b"0x", b"Math.random()+0x", 1)
    with pytest.raises(FetchError, match="no 32-bit number"):
        images.bootrom_path(fetch=True)
    assert leftovers(cache) == []


def test_an_interrupted_download_leaves_nothing_that_passes_for_a_good_file(cache, server):
    server.cut.add("/RPI_PICO.uf2")  # the server closes half-way through
    with pytest.raises(FetchError, match=r"stopped after \d+ of \d+ bytes|broke off"):
        images.firmware_path(fetch=True)
    assert leftovers(cache) == []
    with pytest.raises(images.MissingImage):  # nothing there for the next, offline, use
        images.firmware_path(fetch=True, offline=True)
    server.cut.clear()
    assert images.firmware_path(fetch=True) == str(cache / pins.MICROPYTHON.filename)


def test_a_part_file_left_by_a_killed_download_is_never_taken_and_is_swept(cache, server):
    os.makedirs(cache)
    stale = cache / f".{pins.MICROPYTHON.filename}.abc123.part"
    stale.write_bytes(FIRMWARE[:100])
    with pytest.raises(images.MissingImage):
        images.firmware_path(offline=True)
    images.firmware_path(fetch=True)
    assert not stale.exists()


def test_a_cached_file_changed_on_disk_is_removed_and_fetched_again(cache, server, capsys):
    path = images.firmware_path(fetch=True)
    with open(path, "r+b") as f:
        f.write(b"X")
    assert images.firmware_path(fetch=True) == path
    assert server.requests["/RPI_PICO.uf2"] == 2
    assert "changed on disk" in capsys.readouterr().err


def test_offline_names_what_is_missing_and_how_to_supply_it(cache, server, monkeypatch):
    for offline_env in (False, True):
        if offline_env:
            monkeypatch.setenv("BLINKS_OFFLINE", "1")
        with pytest.raises(images.MissingImage) as missing:
            images.firmware_path(fetch=True, offline=not offline_env)
        message = str(missing.value)
        assert "no MicroPython firmware" in message and "--offline or BLINKS_OFFLINE" in message
        assert str(cache / pins.MICROPYTHON.filename) in message  # where it was looked for
        assert "blinks fetch" in message and pins.MICROPYTHON.url in message  # how to supply
        assert "BLINKS_RP2_FIRMWARE" in message
        with pytest.raises(images.MissingImage, match="(?s)no RP2040 bootrom.*BLINKS_RP2_BOOTROM"):
            images.bootrom_path(fetch=True, offline=not offline_env)
    assert server.requests == {}


def test_blinks_emu_offline_exits_2_naming_the_missing_file(cache, server, capsys):
    assert cli.main(["emu", "--offline"]) == 2
    err = capsys.readouterr().err
    assert "no MicroPython firmware" in err and "--offline" in err
    assert server.requests == {}


def test_named_files_and_the_data_folder_win_over_the_cache_and_the_network(
    cache, server, tmp_path, monkeypatch
):
    data = tmp_path / "data" / "blinks" / "rp2"
    data.mkdir(parents=True)
    (data / "firmware.uf2").write_bytes(FIRMWARE)
    assert images.firmware_path(fetch=True) == str(data / "firmware.uf2")
    own = tmp_path / "own.bin"
    own.write_bytes(bytes(16384))
    monkeypatch.setenv("BLINKS_RP2_BOOTROM", str(own))
    assert images.bootrom_path(fetch=True) == str(own)
    monkeypatch.setenv("BLINKS_RP2_BOOTROM", str(tmp_path / "gone.bin"))
    with pytest.raises(images.MissingImage, match="gone.bin.*BLINKS_RP2_BOOTROM"):
        images.bootrom_path(fetch=True)  # a named file that is missing is never downloaded
    assert images.firmware_path(str(data / "firmware.uf2"), fetch=True) == str(
        data / "firmware.uf2"
    )
    assert server.requests == {}


def test_an_unreachable_server_is_a_named_failure(cache, monkeypatch):
    dead = pin_like(pins.MICROPYTHON, "http://127.0.0.1:9/none.uf2", FIRMWARE)
    monkeypatch.setattr(pins, "MICROPYTHON", dead)
    with pytest.raises(FetchError, match="could not download http://127.0.0.1:9/none.uf2"):
        images.firmware_path(fetch=True)
    assert leftovers(cache) == []


def test_blinks_fetch_fetches_ahead_and_says_where(cache, server, capsys):
    assert cli.main(["fetch"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"firmware {cache / pins.MICROPYTHON.filename}",
        f"bootrom {cache / pins.BOOTROM.filename}",
    ]
    assert cli.main(["fetch", "--bootrom"]) == 0
    assert capsys.readouterr().out == f"bootrom {cache / pins.BOOTROM.filename}\n"
    assert server.requests == {"/RPI_PICO.uf2": 1, "/bootrom.ts": 1}


def test_blinks_fetch_refuses_a_version_that_is_not_pinned_and_offline(
    cache, server, capsys, monkeypatch
):
    assert cli.main(["fetch", "--version", "1.27.0"]) == 2
    err = capsys.readouterr().err
    assert "1.27.0 is not pinned" in err and "only 1.28.0" in err
    assert cli.main(["fetch", "--version", "v1.28.0", "--firmware"]) == 0
    monkeypatch.setenv("BLINKS_OFFLINE", "1")
    assert cli.main(["fetch"]) == 2
    assert "BLINKS_OFFLINE" in capsys.readouterr().err


def test_blinks_fetch_says_which_download_failed(cache, server, capsys):
    server.files["/bootrom.ts"] = b"nothing like it"
    assert cli.main(["fetch", "--bootrom"]) == 1
    assert "blinks fetch:" in capsys.readouterr().err


def test_the_product_keeps_its_real_pins():
    assert pins.MICROPYTHON.url == (
        "https://micropython.org/resources/firmware/RPI_PICO-20260406-v1.28.0.uf2"
    )
    assert pins.BOOTROM.url.startswith(
        "https://raw.githubusercontent.com/wokwi/rp2040js/f9becba867f6d7afbf99551270cc9a2e841742eb/"
    )
    assert pins.BOOTROM.sha256 == (
        "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
    )
    assert list(pins.FIRMWARE_PINS) == ["1.28.0"]


def test_the_bootrom_source_is_read_as_data():
    assert pins.decode_bootrom_ts(bootrom_ts(BOOTROM)) == BOOTROM
    with pytest.raises(ValueError, match="4095 words"):
        pins.decode_bootrom_ts(bootrom_ts(BOOTROM[:-4]))
    with pytest.raises(ValueError, match="no 32-bit number"):
        pins.decode_bootrom_ts(b"new Uint32Array([0x1, 0x100000000])")
    with pytest.raises(ValueError, match="UTF-8"):
        pins.decode_bootrom_ts(b"\xff\xfe")


def test_a_direct_fetch_into_a_folder(tmp_path, server):
    path = fetch(pins.BOOTROM, folder=str(tmp_path / "here"), progress=False)
    assert path == str(tmp_path / "here" / pins.BOOTROM.filename)


def test_blinks_fetch_from_a_file_you_have_checks_it_and_needs_no_network(
    cache, server, tmp_path, capsys
):
    ts = tmp_path / "bootrom.ts"
    ts.write_bytes(bootrom_ts(BOOTROM))
    assert cli.main(["fetch", "--bootrom", "--from", str(ts)]) == 0  # the source form, decoded
    assert capsys.readouterr().out == f"bootrom {cache / pins.BOOTROM.filename}\n"
    assert images.bootrom_path(offline=True) == str(cache / pins.BOOTROM.filename)
    uf2_file = tmp_path / "fw.uf2"
    uf2_file.write_bytes(FIRMWARE[:-1] + b"!")  # not the pinned build
    assert cli.main(["fetch", "--firmware", "--from", str(uf2_file)]) == 1
    err = capsys.readouterr().err
    assert "nothing was kept" in err and "--firmware (blinks emu)" in err
    assert leftovers(cache) == [pins.BOOTROM.filename]
    assert cli.main(["fetch", "--from", str(ts)]) == 2  # which file is it?
    assert server.requests == {}


def test_blinks_fetch_offline_lists_what_is_there_and_says_how_to_supply_the_rest(
    cache, server, tmp_path, capsys
):
    rom = tmp_path / "bootrom.bin"
    rom.write_bytes(BOOTROM)
    assert cli.main(["fetch", "--bootrom", "--from", str(rom)]) == 0
    capsys.readouterr()
    assert cli.main(["fetch", "--offline"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == ["firmware missing", f"bootrom {cache / pins.BOOTROM.filename}"]
    assert "blinks fetch --firmware --from FILE" in err
    assert max(len(line) for line in err.splitlines()) < 200  # a few short lines, not one long
    assert server.requests == {}


def test_blinks_emu_offline_names_every_missing_file_at_once(cache, server, capsys):
    assert cli.main(["emu", "--offline"]) == 2
    err = capsys.readouterr().err
    assert "no MicroPython firmware" in err and "no RP2040 bootrom" in err
    assert "blinks fetch --bootrom --from FILE" in err
