"""The registry's store: database settings, migrations, users and roles, saved
rule sets (quota, uniqueness by canonical form, names, admin-only rename, copy),
and saved names loading as ttt(rules=NAME). Every refusal also checks that
nothing was saved."""

import json
import sqlite3

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import rules as ttt_rules
from registry import Registry, RegistryError, db, rulesets, users


def ruleset(name, black=3, white=3, size=(4, 4, 1)):
    return {
        "name": name,
        "board": {"kind": "squares", "size": list(size)},
        "reserves": {"black": black, "white": white},
    }


def snapshot(reg):
    """Every row of every table: what a refused change must leave as it was."""
    tables = [r[0] for r in reg.query("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: reg.query(f"SELECT * FROM {t} ORDER BY rowid") for t in sorted(tables)}


@pytest.fixture
def reg(tmp_path):
    with Registry(tmp_path / "reg.sqlite3") as r:
        users.add_user(r, "root", "admin")
        users.add_user(r, "cat", "creator")
        users.add_user(r, "tom", "trainer", by="root")
        yield r


def test_database_settings_and_seeding(tmp_path):
    path = tmp_path / "sub" / "r.sqlite3"
    with Registry(path) as reg:
        assert reg.one("PRAGMA journal_mode")[0] == "wal"
        assert reg.one("PRAGMA foreign_keys")[0] == 1
        assert db.version(reg.db) == db.SCHEMA_VERSION >= 1
        names = [r["name"] for r in rulesets.list_rule_sets(reg)]
        assert names == sorted(ttt_rules.CATALOGUE.names())
        assert all(r["creator"] is None for r in rulesets.list_rule_sets(reg))
    with Registry(path) as reg:  # opening again seeds nothing twice
        assert len(rulesets.list_rule_sets(reg)) == len(names)


def test_default_path_follows_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(db.ENV_DB, str(tmp_path / "x.sqlite3"))
    assert db.default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv(db.ENV_DB)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert db.default_path() == tmp_path / "data" / "flipgames" / "registry.sqlite3"


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "r.sqlite3"
    Registry(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {db.SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(RegistryError, match="newer than this toolkit"):
        Registry(path)


def test_unusable_paths_are_refused(tmp_path):
    with pytest.raises(RegistryError, match="is a directory"):
        Registry(tmp_path)
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database at all" * 100)
    with pytest.raises(RegistryError, match="cannot be used"):
        Registry(junk)


def test_roles(reg):
    assert {u["name"]: u["role"] for u in users.list_users(reg)} == {
        "root": "admin",
        "cat": "creator",
        "tom": "trainer",
    }
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="only an Admin"):
        users.add_user(reg, "eve", "admin", by="cat")
    with pytest.raises(RegistryError, match="only an Admin"):
        users.add_user(reg, "eve", "trainer")
    with pytest.raises(RegistryError, match="role 'boss' is not allowed"):
        users.add_user(reg, "eve", "boss")
    with pytest.raises(RegistryError, match="is taken"):
        users.add_user(reg, "cat")
    with pytest.raises(RegistryError, match="not allowed"):
        users.add_user(reg, "two words")
    assert snapshot(reg) == before


def test_save_and_load_as_openspiel_game(reg):
    assert rulesets.save_rule_set(reg, "cat", ruleset("Small4")) == "Small4"
    rulesets.attach(reg)
    game = pyspiel.load_game("ttt(rules=Small4)")
    assert game.num_players() == 2 and game.num_distinct_actions() >= 16
    assert ttt_rules.fingerprint("Small4") == rulesets.list_rule_sets(reg, "cat")[0]["fingerprint"]
    rulesets.detach(reg)
    with pytest.raises(ValueError, match="not allowed"):
        ttt_rules.resolve("Small4")


def test_creator_quota(reg):
    for i in range(users.CREATOR_QUOTA):
        rulesets.save_rule_set(reg, "cat", ruleset(f"Q{i}", black=1 + i % 8, white=1 + i // 8))
    assert users.quota_left(reg, "cat") == 0
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="Creator quota"):
        rulesets.save_rule_set(reg, "cat", ruleset("One-more", black=9, white=9))
    with pytest.raises(RegistryError, match="Creator quota"):
        rulesets.copy_rule_set(reg, "cat", "Q0")
    assert snapshot(reg) == before
    for i in range(users.CREATOR_QUOTA + 2):  # trainers and admins: no quota
        rulesets.save_rule_set(reg, "tom", ruleset(f"T{i}", black=9 + i % 7, white=9 + i // 7))
    assert users.quota_left(reg, "tom") is None
    assert len(rulesets.creations(reg, "cat")) == users.CREATOR_QUOTA
    assert len(rulesets.creations(reg, "tom")) == users.CREATOR_QUOTA + 2


def test_duplicates_by_canonical_form_are_refused(reg):
    rulesets.save_rule_set(reg, "cat", ruleset("Orig"))
    before = snapshot(reg)
    reordered = json.dumps(
        {
            "reserves": {"white": 3, "black": 3},
            "name": "Other",
            "notes": "different notes",
            "players": "2",
            "board": {"size": [4, 4, 1], "kind": "squares"},
        }
    )
    with pytest.raises(RegistryError, match="identical to the saved 'Orig'"):
        rulesets.save_rule_set(reg, "tom", reordered)
    tictactoe = rulesets.rule_set_json(reg, "Tic-Tac-Toe")
    tictactoe["name"] = "MyTTT"
    with pytest.raises(RegistryError, match="identical to the saved 'Tic-Tac-Toe'"):
        rulesets.save_rule_set(reg, "cat", tictactoe)
    with pytest.raises(RegistryError, match="already saved"):
        rulesets.save_rule_set(reg, "cat", ruleset("Orig", black=4))
    with pytest.raises(RegistryError, match="already saved"):
        rulesets.save_rule_set(reg, "cat", ruleset("Connect4", black=4))
    assert snapshot(reg) == before


@pytest.mark.parametrize(
    "bad", ["has space", "star*", "paren(", "close)", "comma,x", "eq=1", "slash/x", "12", "true", ""]
)
def test_bad_names_are_refused(reg, bad):
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="name"):
        rulesets.save_rule_set(reg, "cat", ruleset(bad))
    assert snapshot(reg) == before


@pytest.mark.parametrize(
    "bad",
    [
        "{not json",
        json.dumps({"name": "X", "board": {"kind": "moon"}}),
        json.dumps({"name": "X", "reserves": {"black": -1}}),
        "[]",
    ],
)
def test_malformed_rule_sets_are_refused(reg, bad):
    before = snapshot(reg)
    with pytest.raises(RegistryError):
        rulesets.save_rule_set(reg, "cat", bad)
    assert snapshot(reg) == before


def test_unknown_user_is_refused(reg):
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="unknown user 'nobody'"):
        rulesets.save_rule_set(reg, "nobody", ruleset("Fine"))
    assert snapshot(reg) == before


def test_rename_is_admin_only(reg):
    rulesets.save_rule_set(reg, "cat", ruleset("Before"))
    before = snapshot(reg)
    for user in ("cat", "tom"):
        with pytest.raises(RegistryError, match="only an Admin"):
            rulesets.rename_rule_set(reg, user, "Before", "After")
    with pytest.raises(RegistryError, match="catalogue"):
        rulesets.rename_rule_set(reg, "root", "Connect4", "C4")
    with pytest.raises(RegistryError, match="new name"):
        rulesets.rename_rule_set(reg, "root", "Before", "bad name")
    with pytest.raises(RegistryError, match="already saved"):
        rulesets.rename_rule_set(reg, "root", "Before", "Tapatan")
    with pytest.raises(RegistryError, match="unknown rule set"):
        rulesets.rename_rule_set(reg, "root", "Nope", "After")
    assert snapshot(reg) == before
    rulesets.rename_rule_set(reg, "root", "Before", "After")
    assert rulesets.rule_set_json(reg, "After")["name"] == "After"
    rulesets.attach(reg)
    assert pyspiel.load_game("ttt(rules=After)").num_players() == 2


def test_copy_is_unsaved_and_prefilled(reg):
    copy = rulesets.copy_rule_set(reg, "cat", "Connect4")
    assert copy["name"] == "Connect4-copy"
    assert rulesets.parse_rule_set(copy) == ttt_rules.resolve("Connect4")
    assert "Connect4-copy" not in [r["name"] for r in rulesets.list_rule_sets(reg)]
    copy["reserves"] = {"black": 20, "white": 20}
    assert rulesets.save_rule_set(reg, "cat", copy) == "Connect4-copy"


def test_migration_from_version_1_keeps_everything_and_adds_the_selected_universe(tmp_path):
    path = tmp_path / "v1.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    raw.executescript(db.MIGRATIONS[0])
    raw.execute("PRAGMA user_version = 1")
    raw.execute("INSERT INTO universes (name, created) VALUES ('Public', 't')")
    raw.execute("INSERT INTO users (name, role, created) VALUES ('old', 'admin', 't')")
    raw.close()
    with Registry(path) as reg:
        assert db.version(reg.db) == db.SCHEMA_VERSION
        assert users.list_users(reg) == [{"name": "old", "role": "admin", "rule_sets": 0}]
        assert users.selected_universe(reg, "old") == "Public"  # never selected one
        reg.db.execute("INSERT INTO universes (name, created) VALUES ('Dream', 't')")
        users.select_universe(reg, "old", "Dream")
    with Registry(path) as reg:
        assert users.selected_universe(reg, "old") == "Dream"
        before = snapshot(reg)
        with pytest.raises(RegistryError, match="unknown universe"):
            users.select_universe(reg, "old", "Nowhere")
        assert snapshot(reg) == before
