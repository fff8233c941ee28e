"""A session script that must be refused: written to a file, run by `blinks session run`, it
exits 2 with an error that names its file, its line and what was expected."""

from host_tools.cli import main


def refused(tmp_path, capsys, text, line, message, suffix, *options):
    """Run `text` as game`suffix`; check the refusal; return what went to stdout."""
    path = tmp_path / f"game{suffix}"
    path.write_text(text)
    assert main(["session", "run", *options, str(path)]) == 2
    out, err = capsys.readouterr()
    assert f"{path}:{line}: " in err and message in err, err
    return out
