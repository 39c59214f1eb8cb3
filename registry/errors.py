"""The one error the registry raises for anything a user can get wrong."""


class RegistryError(ValueError):
    """Bad input or a refused change (quota, duplicate, permission, unknown name).

    Raised before anything is written, or from inside the transaction that is
    then rolled back, so a refused change leaves the database as it was."""


class UnknownName(RegistryError):
    """A name the registry does not hold (``kind``: "rule set", "player").

    Why its own class: the message tells a terminal user the command that lists
    the names; ``kind`` and ``name`` let another front end (the web app) say
    where it lists them instead, without reading the message."""

    def __init__(self, kind: str, name: str, hint: str):
        super().__init__(f"unknown {kind} {name!r}{hint}")
        self.kind = kind
        self.name = name
