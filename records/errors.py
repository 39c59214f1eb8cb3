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
    """The store holds a record of the same key made with other settings."""
