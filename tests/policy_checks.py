"""Policies compared as what they mean: a distribution over actions."""


def distribution(policy) -> dict[int, float]:
    """``{action: probability}`` from a list of (action, probability) pairs, as a bot's
    ``get_policy`` returns, or from a dict, as a policy file stores (its keys strings)."""
    pairs = policy.items() if isinstance(policy, dict) else policy
    return {int(action): float(p) for action, p in pairs}
