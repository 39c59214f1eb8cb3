"""The one error the registry raises for anything a user can get wrong."""


class RegistryError(ValueError):
    """Bad input or a refused change (quota, duplicate, permission, unknown name).

    Raised before anything is written, or from inside the transaction that is
    then rolled back, so a refused change leaves the database as it was."""
