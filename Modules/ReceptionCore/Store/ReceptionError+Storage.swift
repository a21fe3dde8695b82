extension ReceptionError.Code {
    /// Local storage is full (SQLite `SQLITE_FULL`, a full disk); nothing was written.
    public static let storageFull = ReceptionError.Code("storage_full")
}

extension ReceptionError {
    /// The message store could not be opened, read or written; what it held before is unchanged.
    public static let storageUnavailable = ReceptionError(code: Code.storageUnavailable)

    /// The device has no room for the write; what the store held before is unchanged.
    public static let storageFull = ReceptionError(code: Code.storageFull)

    /// A value the store refuses (for example a confirmed message given to the outbox).
    public static let invalidInput = ReceptionError(code: Code.invalidInput)
}
