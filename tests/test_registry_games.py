"""Players, universes, friends, recorded games, ratings (2-4 players, partners,
vs Chaos) and the leaderboard with Top-Burst."""

import random

import pytest

from games.ttt import make_core
from registry import Registry, RegistryError, play, players, rating_model, results, rulesets, users
from registry import leaderboard as lb
from registry.store import STARTING_BOTS
from test_registry_store import snapshot


def rules_for(name, players_field):
    colours = {"2-vs-chaos": 3}.get(players_field, 4)
    reserves = dict.fromkeys(("black", "white", "pink", "yellow")[:colours], 4)
    return {
        "name": name,
        "players": players_field,
        "board": {"kind": "squares", "size": [4, 4, 1]},
        "reserves": reserves,
    }


def random_game(reg, name, seed):
    """(actions, returns) of one uniformly random game of the saved rule set ``name``."""
    core = make_core(results.rule_set_of(reg, name))
    rng = random.Random(seed)
    actions = []
    while not core.terminal():
        if core.player() == -1:
            outcomes, probs = zip(*core.chance_outcome_list(), strict=True)
            action = rng.choices(outcomes, probs)[0]
        else:
            action = rng.choice(core.legal_action_list())
        core.apply_action(action)
        actions.append(action)
    return actions, core.returns_list()


@pytest.fixture
def reg(tmp_path):
    with Registry(tmp_path / "reg.sqlite3") as r:
        users.add_user(r, "root", "admin")
        for name in ("ann", "ben", "cy"):
            users.add_user(r, name)
        players.add_bot(r, "m20", "mcts:simulations=20")
        players.add_bot(r, "ab", "alphabeta:depth=2")
        for name, field in (
            ("Four", "4"),
            ("Pairs", "partners"),
            ("Three-Chaos", "3-vs-chaos"),
            ("Two-Chaos", "2-vs-chaos"),
        ):
            rulesets.save_rule_set(r, "root", rules_for(name, field))
        yield r


def test_players_and_bad_bots(reg):
    kinds = {p["name"]: p["kind"] for p in players.list_players(reg)}
    assert kinds == {
        "Random": "random",
        "Chaos": "chaos",
        "root": "human",
        "ann": "human",
        "ben": "human",
        "cy": "human",
        "m20": "bot",
        "ab": "bot",
        **{name: "bot" for name, _ in STARTING_BOTS},
    }
    assert players.bot_spec(reg, "m20").settings["max_simulations"] == 20
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="bot spec"):
        players.add_bot(reg, "bad", "mcts:simulatons=5")
    with pytest.raises(RegistryError, match="bot spec"):
        players.add_bot(reg, "bad", "nosuchkind")
    with pytest.raises(RegistryError, match="is taken"):
        players.add_bot(reg, "ann", "mcts")
    with pytest.raises(RegistryError, match="Random is already"):
        players.add_bot(reg, "r2", "random")
    with pytest.raises(RegistryError, match="not a bot"):
        players.bot_spec(reg, "ann")
    assert snapshot(reg) == before


def test_standard_player(reg):
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="Trainer or Admin"):
        players.set_standard_player(reg, "ann", "Connect4", "ab")
    with pytest.raises(RegistryError, match="must be a bot"):
        players.set_standard_player(reg, "root", "Connect4", "ann")
    assert snapshot(reg) == before
    players.set_standard_player(reg, "root", "Connect4", "ab")
    assert players.standard_player(reg, "Connect4") == "ab"
    assert players.standard_player(reg, "Tapatan") is None


def test_universes_and_personas(reg):
    players.add_universe(reg, "ann", "Moon")
    players.add_persona(reg, "ann", "Moon", "ann-moon")
    assert players.universes_of(reg, "ann") == ["Public", "Moon"]
    assert players.universes_of(reg, "ben") == ["Public"]
    moon = {p["name"] for p in players.list_players(reg, "Moon")}
    assert moon == {"Random", "Chaos", "m20", "ab", "ann-moon", *(name for name, _ in STARTING_BOTS)}
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="already has a persona"):
        players.add_persona(reg, "ann", "Moon", "ann-moon2")
    with pytest.raises(RegistryError, match="unknown universe"):
        players.add_persona(reg, "ben", "Mars", "ben-mars")
    actions, returns = random_game(reg, "Tic-Tac-Toe", 1)
    with pytest.raises(RegistryError, match="does not live in this universe"):
        results.record_game(reg, "Tic-Tac-Toe", ["ann", "m20"], returns, actions, universe="Moon")
    assert snapshot(reg) == before
    results.record_game(reg, "Tic-Tac-Toe", ["ann-moon", "m20"], returns, actions, universe="Moon")
    assert [e.player for e in lb.leaderboard(reg, "Tic-Tac-Toe", "Public")] == ["Random"]
    assert {e.player for e in lb.leaderboard(reg, "Tic-Tac-Toe", "Moon")} == {"ann-moon", "m20", "Random"}


def test_friend_requests(reg):
    players.request_friend(reg, "ann", "ben")
    assert players.friends(reg, "ben") == {"friends": [], "pending_in": ["ann"], "pending_out": []}
    assert not players.are_friends(reg, "ann", "ben")
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="pending request"):
        players.request_friend(reg, "ann", "ben")
    with pytest.raises(RegistryError, match="human players"):
        players.request_friend(reg, "ann", "m20")
    with pytest.raises(RegistryError, match="itself"):
        players.request_friend(reg, "ann", "ann")
    with pytest.raises(RegistryError, match="no pending"):
        players.answer_friend(reg, "cy", "ann", True)
    assert snapshot(reg) == before
    players.answer_friend(reg, "ben", "ann", True)
    assert players.are_friends(reg, "ben", "ann")
    assert players.friends(reg, "ann")["friends"] == ["ben"]
    with pytest.raises(RegistryError, match="friends already"):
        players.request_friend(reg, "ben", "ann")
    players.request_friend(reg, "cy", "ann")
    players.answer_friend(reg, "ann", "cy", False)
    assert players.friends(reg, "ann") == {"friends": ["ben"], "pending_in": [], "pending_out": []}


@pytest.mark.parametrize(
    "name,seats",
    [
        ("Tic-Tac-Toe", ["ann", "m20"]),
        ("3P-Notakto", ["ann", "m20", "Random"]),
        ("Four", ["ann", "ben", "m20", "Random"]),
        ("Pairs", ["ann", "ben", "m20", "Random"]),
        ("Three-Chaos", ["ann", "m20", "Random"]),
        ("Two-Chaos", ["ann", "ab"]),
    ],
)
def test_games_are_recorded_and_rated(reg, name, seats):
    for seed in range(12):
        actions, returns = random_game(reg, name, seed)
        gid = results.record_game(reg, name, seats, returns, actions)
        game = results.games_of(reg, player="ann")[-1]
        assert game["id"] == gid and game["players"] == seats and game["moves"] == actions
        assert game["returns"] == returns
        chaos = name.endswith("Chaos")
        assert (game["chaos"] is not None) == chaos
        if chaos:
            assert game["chaos"] == rating_model.chaos_result(returns)
    board = {e.player: e for e in lb.leaderboard(reg, name)}
    assert set(seats) <= set(board) and "Chaos" not in board
    assert all(board[s].games == 12 for s in seats)
    if name == "Pairs":  # partners share every outcome, so their ratings move together
        assert board["ann"].skill == pytest.approx(board["m20"].skill)
        assert board["ben"].skill == pytest.approx(board["Random"].skill)


def test_ratings_follow_results():
    beginner = rating_model.BEGINNER
    after = rating_model.update([beginner] * 3, [1, -1, -1], partners=False, chaos=None)
    assert after[0][0] > beginner[0] > after[1][0] == pytest.approx(after[2][0])
    # beating Chaos (rated as a beginner) raises everyone; losing to it lowers everyone
    won = rating_model.update([beginner] * 2, [1, 1], partners=False, chaos=-1.0)
    lost = rating_model.update([beginner] * 2, [-1, -1], partners=False, chaos=1.0)
    assert won[0][0] > beginner[0] > lost[0][0]
    assert rating_model.chaos_result([1, 1]) == -1 and rating_model.chaos_result([-1, -1]) == 1
    assert rating_model.chaos_result([1, -1]) == 0


def test_bad_games_are_refused(reg):
    actions, returns = random_game(reg, "Tic-Tac-Toe", 3)
    before = snapshot(reg)
    cases = [
        (["ann"], returns, actions, "2 player seats"),
        (["ann", "ann"], returns, actions, "different player"),
        (["ann", "ghost"], returns, actions, "unknown player 'ghost'"),
        (["ann", "Chaos"], returns, actions, "Chaos cannot take a seat"),
        (["ann", "m20"], [r + 1 for r in returns], actions, "not what the moves give"),
        (["ann", "m20"], returns, actions[:-1], "do not finish"),
        (["ann", "m20"], returns, actions + [15], "already over"),
        (["ann", "m20"], returns, [99] + actions[1:], "illegal"),
        (["ann", "m20"], ["x", 1], actions, "must be numbers"),
    ]
    for seats, rets, moves, message in cases:
        with pytest.raises(RegistryError, match=message):
            results.record_game(reg, "Tic-Tac-Toe", seats, rets, moves)
    with pytest.raises(RegistryError, match="unknown rule set"):
        results.record_game(reg, "Nope", ["ann", "m20"], returns, actions)
    assert snapshot(reg) == before


def test_top_burst_and_held():
    assert lb.top_burst([1, 2, 3]) == 0.0  # fewer games than the window
    rising = [1, 2, 3, 4, 5, 6, 7]
    assert lb.top_burst(rising) == 0.0
    fallen = [5, 5, 5, 5, 5, 1]  # held 5 for five games, then fell
    assert lb.top_burst(fallen) == pytest.approx(4.0)
    assert lb.top_burst([1, 9, 1, 1, 1, 1]) == 0.0  # one lucky game lifts nothing
    times = [f"2026-01-01T00:0{i}:00+00:00" for i in range(6)]
    assert lb.held(fallen, times, 5.0, "2026-01-01T01:00:00+00:00") == (5, 300.0)
    assert lb.held(rising[:6], times, 6, "2026-01-01T00:10:00+00:00") == (1, 300.0)


def test_leaderboard_rows(reg, monkeypatch):
    monkeypatch.setattr(lb, "ROWS", 4)
    monkeypatch.setattr(lb, "RANKED", 3)
    for i in range(4):
        players.add_bot(reg, f"b{i}", f"mcts:simulations={30 + i}")
    bots = ["m20", "ab", "b0", "b1", "b2", "b3"]
    actions, returns = random_game(reg, "Tic-Tac-Toe", 0)
    winner = 0 if returns[0] > 0 else 1
    for i, bot in enumerate(bots):  # every bot beats ann once ...
        seats = [bot, "ann"] if winner == 0 else ["ann", bot]
        for _ in range(i + 1):  # ... and later bots beat her more often
            results.record_game(reg, "Tic-Tac-Toe", seats, returns, actions)
    players.set_standard_player(reg, "root", "Tic-Tac-Toe", "m20")
    board = lb.leaderboard(reg, "Tic-Tac-Toe", user="ann")
    names = [e.player for e in board]
    assert len(board) == 4 and {"Random", "m20", "ann"} <= set(names)
    levels = [e.level for e in board]
    assert levels == sorted(levels, reverse=True)
    assert [e.rank for e in board if e.rank] == sorted(e.rank for e in board if e.rank)
    monkeypatch.setattr(lb, "ROWS", 20)
    everyone = lb.leaderboard(reg, "Tic-Tac-Toe", user="ann")
    assert board[0].player == everyone[0].player and board[0].rank == 1 and board[0].player in bots
    assert [e.rank for e in everyone if e.rank] == [1, 2, 3]
    ann = next(e for e in everyone if e.player == "ann")
    assert all(e.skill > ann.skill for e in everyone if e.player in bots)
    assert next(e for e in everyone if e.player == bots[0]).skill < min(
        e.skill for e in everyone if e.player in bots[1:]
    )  # one win counts least
    text = lb.format_board(board)
    assert board[0].player in text and "Random" in text


def test_play_records_a_game_with_a_human_and_a_bot(reg):
    typed = iter(["nonsense"] + [str(a) for a in range(16)] * 2)
    lines = []
    ask = play.terminal_ask(read=lambda prompt: next(typed), write=lines.append)
    gid = play.play(reg, "Tic-Tac-Toe", ["ann", "m20"], ask, seed=3)
    game = results.games_of(reg, player="ann")[-1]
    assert game["id"] == gid and game["players"] == ["ann", "m20"]
    assert any("not a legal move" in line for line in lines)
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="abandoned"):
        play.play(
            reg,
            "Tic-Tac-Toe",
            ["ann", "m20"],
            play.terminal_ask(read=lambda prompt: (_ for _ in ()).throw(EOFError), write=lines.append),
        )
    assert snapshot(reg) == before


def test_a_resigned_game_is_recorded_as_a_loss_of_the_resigning_side(reg):
    actions, returns = random_game(reg, "Tic-Tac-Toe", 3)
    before = snapshot(reg)
    with pytest.raises(RegistryError, match="nobody can resign it"):
        results.record_game(reg, "Tic-Tac-Toe", ["ann", "ben"], [-1.0, 1.0], actions, resigned=0)
    with pytest.raises(RegistryError, match="not what the moves give"):
        results.record_game(reg, "Tic-Tac-Toe", ["ann", "ben"], [1.0, -1.0], actions[:3], resigned=0)
    with pytest.raises(RegistryError, match="cannot resign"):
        results.record_game(reg, "Tic-Tac-Toe", ["ann", "ben"], [-1.0, 1.0], actions[:3], resigned=2)
    assert snapshot(reg) == before
    gid = results.record_game(reg, "Tic-Tac-Toe", ["ann", "ben"], [-1.0, 1.0], actions[:3], resigned=0)
    [stored] = [g for g in results.games_of(reg, "Tic-Tac-Toe") if g["id"] == gid]
    assert stored["resigned"] == 0 and stored["returns"] == [-1.0, 1.0]
    assert results.resignation_returns(4, 2, partners=True) == [-1.0, 1.0, -1.0, 1.0]
    assert results.resignation_returns(3, 1) == [1.0, -1.0, 1.0]
    assert results.resignation_returns(1, 0) == [-1.0]  # alone against Chaos: Chaos wins
