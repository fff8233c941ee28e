"""Whatever a designer types, `blinks session run --rules-only` answers with an exit code of
the contract and, for a malformed script, one `SCRIPT:LINE: ...` naming a line of the script:
never a traceback (hypothesis, on scripts built from the language's own words and noise)."""

import json
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from host_tools.cli import main

# The language's words, some wrong ones, and odd spaces and digits.
VOCABULARY = (
    "seed deck deal start hint play discard expect colour value score hints errors over "
    "jungle tile shows yes no A B C red yellow blue green blob line ring random face down "
    "R1 R2 R3 Y1 Y2 Y3 B1 B2 B3 0 1 2 3 4 9 10 18 -1 +2 1.5 # ##x"
)
WORDS = (*VOCABULARY.split(), "\u0661", "\u00a0", "\t")  # an Arabic-Indic 1, a no-break space

# Statements that may well be legal, so that sessions get past their first lines.
STATEMENTS = (
    "A hint colour red",
    "B hint value 1",
    "A play 1",
    "B play 2",
    "A discard 1",
    "B discard 2",
    "expect score 0",
    "expect hints 3",
    "expect over no",
    "expect jungle 14",
    "start B",
    "deal",
    "seed 7",
    "deck R1 Y1 B1 R2 Y2 B2 R3 Y3 B3 R1 R1 Y1 Y1 B1 B1 R2 Y2 B2",
)

line = st.one_of(
    st.sampled_from(STATEMENTS),
    st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join),
    st.text(max_size=20),
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(line, max_size=12), json_flag=st.booleans())
@example(lines=["\r0"], json_flag=False)  # a lone carriage return starts no line
def test_any_script_gets_a_contract_exit_code_and_a_located_error(
    tmp_path, capsys, lines, json_flag
):
    path = tmp_path / "fuzz.lg"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    flags = ["--json"] if json_flag else []
    code = main(["session", "run", str(path), "--rules-only", *flags])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    assert "Traceback" not in out + err
    located = re.findall(re.escape(str(path)) + r":(\d+): \S", err)
    if code == 2:
        assert located, err
    # Every located message names a line the script has (lines end at newlines only).
    n_lines = "\n".join(lines).count("\n") + 1
    assert all(1 <= int(n) <= n_lines for n in located), (located, n_lines)
    if json_flag and code != 2:
        assert set(json.loads(out)) >= {"score", "hints", "errors", "over", "turns"}
