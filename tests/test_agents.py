"""The catalogue of agents (agents/): specs, validation, the registry and the builder.

What matters to a user: a bad bot is refused when it is described, with a
message naming what is allowed, never when a game starts; every kind builds a
bot that plays legal moves; a spec survives strings, JSON and pickling; and a
bot's fingerprint changes exactly when what it does changes.
"""

import json
import pickle
import textwrap

import pyspiel
import pytest

import games  # noqa: F401  (registers our games)
from agents import (
    BOT_KINDS,
    BotSpec,
    Option,
    describe_kinds,
    get_kind,
    list_kinds,
    make_bot,
    register_bot_kind,
    unregister_bot_kind,
)

GAME = "y_game(board_size=4)"

#: One cheap valid spec per built-in kind.
CHEAP = {
    "random": "random",
    "mcts": "mcts:simulations=30",
    "openspiel_mcts": "openspiel_mcts:simulations=30",
    "alphabeta": "alphabeta:depth=2",
}


def finished_state(game):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


# ----------------------------------------------------------------------------- specs


def test_parse_reads_kind_options_and_name():
    spec = BotSpec.parse(" openspiel_mcts:simulations=50, uct_c=1.5,solve=false,name=os50 ")
    assert spec.kind == "openspiel_mcts" and spec.name == "os50" and spec.label == "os50"
    assert spec.options == (("simulations", 50), ("solve", False), ("uct_c", 1.5))
    assert spec == BotSpec.make("openspiel_mcts", name="os50", uct_c=1.5, simulations=50, solve=False)


def test_labels_keep_the_options_as_written():
    """Labels are record keys and seed inputs: they must not change with the catalogue."""
    assert BotSpec.parse("random").label == "random"
    assert BotSpec.make("mcts", simulations=300).label == "mcts(simulations=300)"
    assert (
        BotSpec.parse("openspiel_mcts:uct_c=1.5,simulations=50,solve=false").label
        == "openspiel_mcts(simulations=50,solve=False,uct_c=1.5)"
    )


@pytest.mark.parametrize(
    "text",
    [
        "random",
        "random:name=R",
        "mcts:simulations=300,name=m300",
        "mcts:max_time=0.25,simulations=0,uct_c=2.0,solve=false",
        "openspiel_mcts:rollouts=3",
        "alphabeta:depth=3,time_limit=1e-05",
    ],
)
def test_string_json_and_pickle_round_trips(text):
    spec = BotSpec.parse(text)
    assert BotSpec.parse(str(spec)) == spec
    data = json.loads(json.dumps(spec.to_json()))
    assert BotSpec.from_json(data) == spec
    assert data["settings"] == spec.settings and data["fingerprint"] == spec.fingerprint
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_settings_fill_defaults_and_resolve_aliases():
    assert BotSpec.parse("mcts:simulations=300").settings == {
        "max_nodes": 0,
        "max_simulations": 300,
        "max_time": 0.0,
        "solve": True,
        "uct_c": 1.4,
    }
    assert BotSpec.parse("alphabeta:depth=3").settings == {
        "depth": 3,
        "eval_playouts": 8,
        "time_limit": 0.0,
        "tt_log2": 20,
    }
    assert BotSpec.parse("mcts:uct_c=2").settings["uct_c"] == 2.0  # an int where a float goes
    assert BotSpec.parse("random").settings == {}


def test_fingerprint_follows_the_settings_not_the_spelling_or_name():
    same = ["mcts:simulations=1000", "mcts:max_simulations=1000,name=x", "mcts", "mcts:uct_c=1.4"]
    assert len({BotSpec.parse(text).fingerprint for text in same}) == 1
    strong = BotSpec.parse("mcts:simulations=2000,name=strong")
    weak = BotSpec.parse("mcts:simulations=1,name=strong")
    assert strong.label == weak.label and strong.fingerprint != weak.fingerprint
    assert BotSpec.parse("mcts").fingerprint != BotSpec.parse("openspiel_mcts").fingerprint
    # stable across processes and releases: records written today must match tomorrow
    assert BotSpec.parse("mcts:simulations=300").fingerprint == "cb19f2ce9530119a"


@pytest.mark.parametrize(
    "text, message",
    [
        ("mcts:simulatons=300", r"no option 'simulatons' \(did you mean 'simulations'\?\)"),
        ("mcts:max_simulation=300", r"did you mean 'max_simulations'"),
        (
            "mctz",
            r"unknown bot kind 'mctz' \(did you mean 'mcts'\?\); known kinds: alphabeta, cfr, ismcts, mcts",
        ),
        ("random:depth=2", "has no option 'depth'; its options: none"),
        ("mcts:simulations", "not key=value"),
        (":simulations=3", "has no kind"),
        ("mcts:simulations=1.5", "must be an integer"),
        ("mcts:simulations=lots", "must be an integer"),
        ("mcts:solve=1", "must be true or false"),
        ("mcts:uct_c=fast", "must be a finite number"),
        ("mcts:max_time=nan", "must be a finite number, got nan"),
        ("mcts:max_time=inf", "must be a finite number, got inf"),
        ("mcts:max_time=-1", ">= 0.0"),
        ("mcts:simulations=-5", r"'simulations' \(max_simulations\) must be an integer in 0\.\."),
        ("mcts:simulations=0", "needs a budget"),
        ("mcts:simulations=0,max_time=0", "needs a budget"),
        ("openspiel_mcts:simulations=0", "must be an integer in 1.."),
        ("openspiel_mcts:max_time=nan", "finite"),
        ("alphabeta", "needs a budget: give depth > 0 or time_limit > 0"),
        ("alphabeta:time_limit=nan", "finite"),
        ("alphabeta:time_limit=-2", ">= 0.0"),
        ("alphabeta:depth=2,tt_log2=40", r"in 10\.\.30"),
        ("mcts:simulations=3,max_simulations=4", "not both"),
        ("mcts:simulations=3,simulations=4", "given twice"),
        ("random:name=a,b", "not key=value"),
        ("random:name=", "name"),
    ],
)
def test_bad_specs_are_refused_when_described(text, message):
    with pytest.raises(ValueError, match=message):
        BotSpec.parse(text)


def test_every_way_of_making_a_spec_validates():
    with pytest.raises(ValueError, match="did you mean"):
        BotSpec.make("mcts", simulatons=3)
    with pytest.raises(ValueError, match="did you mean"):
        BotSpec("mcts", (("simulatons", 3),))
    with pytest.raises(ValueError, match="did you mean"):
        BotSpec.from_json({"kind": "mcts", "options": {"simulatons": 3}})
    with pytest.raises(ValueError, match="'kind' string"):
        BotSpec.from_json([1, 2])
    with pytest.raises(ValueError, match="finite"):
        BotSpec.make("mcts", max_time=float("nan"))
    with pytest.raises(ValueError, match="a number, true/false or a string"):
        BotSpec.make("mcts", simulations=[3])


# ----------------------------------------------------------------------------- building


@pytest.mark.parametrize("kind", sorted(CHEAP))
def test_every_kind_builds_a_bot_that_plays_legal_moves(kind):
    game = pyspiel.load_game(GAME)
    bots = [make_bot(CHEAP[kind], game, 0, seed=3), make_bot(BotSpec.parse("random"), GAME, 1, seed=4)]
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_the_catalogue_covers_the_built_in_kinds():
    assert set(CHEAP) <= set(BOT_KINDS)
    assert [kind.name for kind in list_kinds()] == sorted(BOT_KINDS)


@pytest.mark.parametrize("kind", sorted(CHEAP))
def test_every_kind_gives_the_same_error_on_a_terminal_state(kind):
    game = pyspiel.load_game(GAME)
    bot = make_bot(CHEAP[kind], game, 0, seed=1)
    with pytest.raises(
        ValueError, match="^a bot was asked for a move in a terminal state: the game is over$"
    ):
        bot.step(finished_state(game))


def test_random_kind_plays_the_games_of_openspiels_random_bot():
    """The wrapper only adds the terminal check: a seed gives the same moves as before."""
    game = pyspiel.load_game(GAME)
    ours = [make_bot("random", game, p, seed=9 + p) for p in (0, 1)]
    theirs = [pyspiel.make_uniform_random_bot(p, 9 + p) for p in (0, 1)]
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        action = ours[player].step(state)
        assert action == theirs[player].step(state)
        state.apply_action(action)
    # out of turn, OpenSpiel's bot would crash the process on an empty choice
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="player 1 has no legal action"):
        ours[1].step(state)


def test_same_spec_and_seed_give_the_same_game():
    game = pyspiel.load_game("double_o_y(board_size=4)")

    def play(seed):
        bots = [make_bot("mcts:simulations=100", game, p, seed=seed + p) for p in (0, 1)]
        return pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)

    assert play(5) == play(5)


@pytest.mark.parametrize(
    "args, message",
    [
        (("mcts", GAME, 2, 0), r"player must be in 0\.\.1"),
        (("mcts", GAME, -1, 0), "player"),
        (("mcts", GAME, 0, -1), r"seed must be an integer in 0\.\.2147483647"),
        (("mcts", GAME, 0, 2**31), "seed"),
        (("mcts", GAME, 0, 1.5), "seed"),
        ((42, GAME, 0, 0), "BotSpec or a spec string"),
        (("mcts", 42, 0, 0), "pyspiel.Game or a game string"),
        (("mcts:simulatons=3", GAME, 0, 0), "did you mean"),
    ],
)
def test_make_bot_refuses_bad_arguments(args, message):
    with pytest.raises(ValueError, match=message):
        make_bot(*args)


# ----------------------------------------------------------------------------- kinds of your own


@pytest.fixture
def custom_module(tmp_path, monkeypatch):
    (tmp_path / "agents_test_custom_bots.py").write_text(
        textwrap.dedent('''
        import pyspiel

        def first_legal(game, player, seed, offset: int = 0, note="x"):
            """Plays the first legal action (a kind of one's own, for the tests)."""
            class First(pyspiel.Bot):
                def __init__(self):
                    pyspiel.Bot.__init__(self)
                def step(self, state):
                    legal = state.legal_actions()
                    return legal[min(offset, len(legal) - 1)]
                def restart_at(self, state):
                    pass
                def inform_action(self, state, player_id, action):
                    pass
            return First()

        def anything(game, player, seed, **options):
            return pyspiel.make_uniform_random_bot(player, seed)

        def no_seed(game, player):
            return None
    ''')
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "agents_test_custom_bots"


def test_module_function_kind_is_validated_from_its_signature(custom_module):
    spec = BotSpec.parse(f"{custom_module}:first_legal:offset=2,name=first")
    assert spec.kind == f"{custom_module}:first_legal" and spec.label == "first"
    assert spec.settings == {"note": "x", "offset": 2}
    assert BotSpec.parse(str(spec)) == spec
    state = pyspiel.load_game(GAME).new_initial_state()
    assert make_bot(spec, GAME, 0, seed=1).step(state) == 2
    assert BotSpec.parse(f"{custom_module}:first_legal").label == f"{custom_module}:first_legal"
    with pytest.raises(ValueError, match="did you mean 'offset'"):
        BotSpec.parse(f"{custom_module}:first_legal:ofset=1")
    with pytest.raises(ValueError, match="must be an integer"):
        BotSpec.parse(f"{custom_module}:first_legal:offset=1.5")
    assert BotSpec.parse(f"{custom_module}:anything:whatever=3").settings == {"whatever": 3}


@pytest.mark.parametrize(
    "kind, message",
    [
        ("agents_test_no_such_module:f", "cannot import agents_test_no_such_module"),
        ("{module}:missing", "has no missing"),
        ("{module}:no_seed", r"must take \(game, player, seed, \*\*options\)"),
    ],
)
def test_module_function_kind_errors(custom_module, kind, message):
    with pytest.raises(ValueError, match=message):
        BotSpec.parse(kind.format(module=custom_module))


def test_register_bot_kind_with_and_without_a_schema():
    def build(game, player, seed, depth: int = 1):
        return pyspiel.make_uniform_random_bot(player, seed)

    register_bot_kind("test_registered", build)
    try:
        assert BotSpec.parse("test_registered:depth=3").settings == {"depth": 3}
        with pytest.raises(ValueError, match="did you mean 'depth'"):
            BotSpec.parse("test_registered:dept=3")
        with pytest.raises(ValueError, match="already registered"):
            register_bot_kind("test_registered", build)
        register_bot_kind(
            "test_registered", build, (Option("depth", int, 1, minimum=1, maximum=5),), replace=True
        )
        with pytest.raises(ValueError, match=r"in 1\.\.5"):
            BotSpec.parse("test_registered:depth=9")
        assert isinstance(make_bot("test_registered", GAME, 1, seed=2), pyspiel.Bot)
    finally:
        unregister_bot_kind("test_registered")
    assert "test_registered" not in BOT_KINDS
    with pytest.raises(ValueError, match="letters, digits and _"):
        register_bot_kind("bad:name", build)


# ----------------------------------------------------------------------------- listing


def test_describe_kinds_lists_every_option_as_json():
    described = json.loads(json.dumps(describe_kinds()))
    by_name = {kind["name"]: kind for kind in described}
    assert set(CHEAP) <= set(by_name)
    simulations = next(o for o in by_name["mcts"]["options"] if o["name"] == "max_simulations")
    assert simulations["type"] == "int" and simulations["default"] == 1000
    assert simulations["aliases"] == ["simulations"] and simulations["minimum"] == 0
    assert by_name["random"]["options"] == []
    assert get_kind("alphabeta").option("time_limit").type is float


def test_cli_lists_the_kinds(capsys):
    from agents.__main__ import main

    assert main([]) == 0
    out = capsys.readouterr().out
    assert "mcts" in out and "max_simulations (simulations)" in out and "alphabeta" in out
    assert main(["--json"]) == 0
    assert {kind["name"] for kind in json.loads(capsys.readouterr().out)} >= set(CHEAP)


def test_tournament_refuses_a_bad_bot_before_any_game(tmp_path, capsys):
    """A typo in a bot option is refused before the first game starts: exit code 2, a
    "did you mean" hint, and no output file."""
    from analysis.tournament import main

    out = tmp_path / "t.jsonl"
    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "--game",
                GAME,
                "--bot",
                "random",
                "--bot",
                "mcts:simulatons=300",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
    assert exit_info.value.code == 2
    assert "did you mean 'simulations'" in capsys.readouterr().err
    assert not out.exists()
