"""What can go wrong with a record store. Every error is a ``ValueError`` with a
message that names the file and what to do, so command lines can report it as a
usage error instead of a traceback."""


class RecordStoreError(ValueError):
    """Base of the record store's errors."""


class DamagedStore(RecordStoreError):
    """A stored entry is not a record (garbage, or JSON that is not an object with the key)."""


class StoreLocked(RecordStoreError):
    """Another process holds the store's write lock."""


class SettingsMismatch(RecordStoreError):
    """The store holds a record of the same key made with other settings; ``key``
    and ``field`` say which (for callers that name the remedy, e.g. the game to redo)."""

    def __init__(self, message: str, key=None, field: str | None = None):
        super().__init__(message)
        self.key, self.field = key, field
