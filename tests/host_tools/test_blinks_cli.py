"""The `blinks` command itself: wiring subcommands, and Ctrl-C while one is still loading."""

import importlib

import pytest

from host_tools import cli


def test_ctrl_c_while_a_subcommand_loads_exits_130_with_one_line(monkeypatch, capsys):
    # `blinks sim` imports pygame before anything runs; a Ctrl-C then is still the user's.
    def interrupted(name):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib, "import_module", interrupted)
    assert cli.main(["sim"]) == 130
    out = capsys.readouterr()
    assert out.err == "blinks: interrupted\n"
    assert out.out == ""


def test_an_unknown_option_is_blamed_on_the_subcommand(capsys):
    with pytest.raises(SystemExit) as exit:
        cli.main(["ports", "--no-such-option"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: blinks ports")
    assert "--no-such-option" in err


def test_version_prints_the_installed_packages_version(capsys):
    from importlib import metadata

    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"blinks {metadata.version('blinks-tiles')}\n"
