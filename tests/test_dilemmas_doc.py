"""The dilemmas' page and its data files (``python -m analysis.dilemmas_doc``):
the files hold the tables ``games.normal_form`` computes, the check names each
game whose block or file is stale or missing, and the page links every file.

The full check of all 26 dilemmas takes about a minute (3P-Volunteer's reduced
game walks 280,793 nodes), so it is a slow test; the default tier checks a few
small games."""

import csv
import gzip
import io
import re
import shutil
from fractions import Fraction

import pytest

from analysis import dilemmas_doc
from games.normal_form import payoff_table
from games.ttt.dilemmas import DILEMMAS, VARIANTS

DATA = dilemmas_doc.data_dir(dilemmas_doc.DOC)
SMALL = ["BoS", "StagHunt", "PrisonerDilemma", "4P-TrendSetter", "RockPaperScissors"]


def rows_of(path):
    """A data file's rows as dicts, whether gzipped or not."""
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode()
    return list(csv.DictReader(io.StringIO(text)))


def with_cell(text, row, column, value):
    """A data file's text with one cell changed."""
    rows = list(csv.reader(io.StringIO(text)))
    rows[row + 1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def brute_force_equilibria(table):
    """Profiles where no player gains alone, by checking every deviation."""
    out = set()
    for profile in table.profiles():
        if all(
            table.payoffs[profile[:p] + (s,) + profile[p + 1 :]][p] <= table.payoffs[profile][p]
            for p in range(table.num_players)
            for s in range(table.shape[p])
        ):
            out.add(profile)
    return out


@pytest.fixture
def copy(tmp_path):
    """The pages and their data files copied to a temporary folder."""
    doc = tmp_path / "dilemmas.md"
    for page in dilemmas_doc.pages(dilemmas_doc.DOC):
        shutil.copy(page, tmp_path / page.name)
    shutil.copytree(DATA, tmp_path / "dilemmas")
    return doc


@pytest.mark.parametrize("name", ["BoS", "4P-TrendSetter", "RockPaperScissors"])
def test_a_data_file_holds_the_table_games_normal_form_computes(name):
    table = payoff_table(f"ttt(rules={name})")
    (path,) = [p for p in DATA.iterdir() if p.name in (f"{name}.csv", f"{name}.csv.gz")]
    rows = rows_of(path)
    assert len(rows) == len(table.payoffs)
    stable = brute_force_equilibria(table)
    for row in rows:
        profile = tuple(int(row[f"index_{p}"]) for p in range(table.num_players))
        for p in range(table.num_players):
            assert row[f"strategy_{p}"] == table.labels(p)[profile[p]]
            assert Fraction(row[f"exact_{p}"]) == table.payoffs[profile][p]
            assert float(row[f"return_{p}"]) == float(table.payoffs[profile][p])
        assert row["pure_equilibrium"] == ("1" if profile in stable else "0")


def test_the_check_passes_on_a_few_small_games_of_the_repository(capsys):
    assert dilemmas_doc.main(["--check", *(f"--only={n}" for n in SMALL)]) == 0
    assert "every computed block and data file is fresh" in capsys.readouterr().out


@pytest.mark.slow
def test_the_check_passes_on_every_game_of_the_repository(capsys):
    assert dilemmas_doc.main(["--check"]) == 0
    assert "every computed block and data file is fresh" in capsys.readouterr().out


def test_the_check_names_a_game_whose_data_file_has_a_wrong_number(copy, capsys):
    path = copy.parent / "dilemmas" / "StagHunt.csv"
    text = path.read_text()
    assert rows_of(path)[0]["exact_1"] == "7/27"
    path.write_text(with_cell(text, 0, "exact_1", "8/27"))
    assert dilemmas_doc.main(["--doc", str(copy), "--check", "--only", "StagHunt", "--only", "BoS"]) == 1
    out = capsys.readouterr().out
    assert "stale: StagHunt: data file StagHunt.csv" in out
    assert "stale: BoS" not in out
    assert dilemmas_doc.main(["--doc", str(copy), "--only", "StagHunt"]) == 0
    assert path.read_text() == text


def test_the_check_reads_a_gzipped_data_file_by_its_text(copy, capsys):
    path = copy.parent / "dilemmas" / "RockPaperScissors.csv.gz"
    text = gzip.decompress(path.read_bytes()).decode()
    path.write_bytes(gzip.compress(text.encode(), compresslevel=1))  # other bytes, same text
    assert dilemmas_doc.main(["--doc", str(copy), "--check", "--only", "RockPaperScissors"]) == 0
    path.write_bytes(gzip.compress(with_cell(text, 0, "exact_0", "1").encode()))
    assert dilemmas_doc.main(["--doc", str(copy), "--check", "--only", "RockPaperScissors"]) == 1
    assert "stale: RockPaperScissors: data file RockPaperScissors.csv.gz" in capsys.readouterr().out


def test_the_check_names_a_game_whose_data_file_is_missing_and_the_rewrite_restores_it(copy, capsys):
    path = copy.parent / "dilemmas" / "PrisonerDilemma.csv"
    text = path.read_text()
    path.unlink()
    assert dilemmas_doc.main(["--doc", str(copy), "--check", "--only", "PrisonerDilemma"]) == 1
    assert "stale: PrisonerDilemma: missing data file PrisonerDilemma.csv" in capsys.readouterr().out
    assert dilemmas_doc.main(["--doc", str(copy), "--only", "PrisonerDilemma"]) == 0
    assert path.read_text() == text


def test_a_data_file_in_the_wrong_form_is_stale_and_removed(copy, capsys):
    folder = copy.parent / "dilemmas"
    (folder / "BoS.csv.gz").write_bytes(gzip.compress((folder / "BoS.csv").read_bytes()))
    assert dilemmas_doc.main(["--doc", str(copy), "--check", "--only", "BoS"]) == 1
    assert "BoS.csv.gz, which should not exist" in capsys.readouterr().out
    assert dilemmas_doc.main(["--doc", str(copy), "--only", "BoS"]) == 0
    assert not (folder / "BoS.csv.gz").exists() and (folder / "BoS.csv").exists()


def test_a_file_that_is_no_dilemmas_is_found(copy):
    folder = copy.parent / "dilemmas"
    (folder / "Notes.txt").write_text("x")
    assert dilemmas_doc.unexpected_files(folder) == ["Notes.txt"]


def test_print_writes_one_games_table_as_its_data_file_holds_it(capsys):
    assert dilemmas_doc.main(["--print", "BoS"]) == 0
    assert capsys.readouterr().out == (DATA / "BoS.csv").read_text()


def test_the_page_links_each_data_file_and_every_data_file_is_a_dilemmas():
    text = "".join(page.read_text() for page in dilemmas_doc.pages(dilemmas_doc.DOC))
    linked = set(re.findall(r"\]\(dilemmas/([^)]+)\)", text))
    files = {p.name for p in DATA.iterdir()}
    assert linked == files
    named = {d.name for d in DILEMMAS + VARIANTS}
    assert {re.sub(r"\.csv(\.gz)?$", "", f) for f in files} == named - {"3P-9X-HideSeek"}
