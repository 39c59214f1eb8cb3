"""Eight processes change one registry at once (1,000 operations: saves that
race on the quota and on uniqueness, renames by Admins and by others, recorded
games): nothing is lost and no rule is ever broken."""

import multiprocessing
import random

from registry import Registry, RegistryError, results, rulesets, users
from test_registry_store import ruleset

PROCESSES = 8
OPERATIONS = 1000
CREATORS = ["c0", "c1", "c2"]
GAME = ([0, 3, 1, 4, 2], [1.0, -1.0])  # Tic-Tac-Toe: Black takes the top row


def worker(args):
    path, index = args
    rng = random.Random(index)
    done = {"saved": [], "renamed": [], "games": 0, "refused": 0, "wrong_accepts": []}
    with Registry(path) as reg:
        for k in range(OPERATIONS // PROCESSES):
            op = rng.random()
            try:
                if op < 0.45:
                    user = rng.choice(CREATORS + ["trainer"])
                    rs = ruleset(f"P{index}-{k}", black=rng.randint(1, 12), white=rng.randint(1, 12))
                    rulesets.save_rule_set(reg, user, rs)
                    done["saved"].append((user, rulesets.parse_rule_set(rs).fingerprint))
                elif op < 0.65:
                    mine = [r["name"] for r in rulesets.list_rule_sets(reg) if r["creator"]]
                    if not mine:
                        continue
                    old = rng.choice(mine)
                    if rng.random() < 0.5:
                        rulesets.rename_rule_set(reg, "root", old, f"R{index}-{k}")
                        done["renamed"].append(f"R{index}-{k}")
                    else:
                        rulesets.rename_rule_set(reg, rng.choice(CREATORS), old, f"X{index}-{k}")
                        done["wrong_accepts"].append(f"X{index}-{k}")
                else:
                    seats = ["m", "Random"] if rng.random() < 0.5 else ["Random", "m"]
                    results.record_game(reg, "Tic-Tac-Toe", seats, GAME[1], GAME[0])
                    done["games"] += 1
            except RegistryError:
                done["refused"] += 1
    return done


def test_eight_processes_lose_nothing_and_break_no_rule(tmp_path):
    path = tmp_path / "r.sqlite3"
    with Registry(path) as reg:
        users.add_user(reg, "root", "admin")
        users.add_user(reg, "trainer", "trainer", by="root")
        for name in CREATORS:
            users.add_user(reg, name)
        from registry import players

        players.add_bot(reg, "m", "mcts:simulations=5")
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        outcomes = pool.map(worker, [(path, i) for i in range(PROCESSES)])
    saved = [s for o in outcomes for s in o["saved"]]
    renamed = [n for o in outcomes for n in o["renamed"]]
    with Registry(path) as reg:
        rows = reg.query(
            "SELECT r.fingerprint, u.name, r.name FROM rule_sets r JOIN users u ON u.id = r.creator_id"
        )
        assert sorted((u, f) for f, u, _ in rows) == sorted(saved)  # nothing lost
        assert len({f for f, _, _ in rows}) == len(rows)  # no duplicate
        for creator in CREATORS:  # quota held
            assert sum(u == creator for _, u, _ in rows) <= users.CREATOR_QUOTA
        assert sum(u == "c0" for _, u, _ in rows) == users.CREATOR_QUOTA  # quota was reached
        names = {n for _, _, n in rows}
        assert not any(n.startswith("X") for n in names)  # admin-only rename
        assert all(o["wrong_accepts"] == [] for o in outcomes)
        final_renamed = {n for n in names if n.startswith("R")}
        assert final_renamed <= set(renamed) and final_renamed
        games = sum(o["games"] for o in outcomes)
        assert reg.one("SELECT count(*) FROM games")[0] == games > 100
        assert reg.one("SELECT count(*) FROM ratings")[0] == 2 * games
        total = sum(len(o["saved"]) + len(o["renamed"]) + o["games"] + o["refused"] for o in outcomes)
        assert total > 0.9 * OPERATIONS
