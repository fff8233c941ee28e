"""`blinks emu --transceiver`: the faces' transceiver figures from the command line, checked
before anything starts (no emulator needed)."""

import pytest

from host_tools import cli


@pytest.mark.parametrize(
    "spec, says",
    [
        ("recovery_us=abc", "recovery_us must be a number of microseconds"),
        ("bogus=1", "expected NAME=VALUE with NAME one of"),
        ("recovery_mode=loud", "recovery_mode must be one of blind, ring"),
        ("pulse_min_us=5", "need 0 < pulse_min_us <= pulse_max_us"),
        ("pulse_loss=x", "pulse_loss must be a number from 0 to 1"),
        ("crosstalk=1.5", "pulse_loss and crosstalk must be from 0 to 1"),
    ],
)
def test_a_bad_transceiver_is_refused_with_what_is_wrong(spec, says, capsys):
    assert cli.main(["emu", "--transceiver", spec]) == 2
    err = capsys.readouterr().err
    assert err.startswith("blinks emu: --transceiver: ") and says in err
