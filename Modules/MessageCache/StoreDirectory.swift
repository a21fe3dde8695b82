import Foundation
import ReceptionCore

/// The folder the cache file lives in: created on demand, kept out of backups on Apple platforms (seed 001,
/// "the history cache is excluded from backups"), and where a damaged file is moved aside. The photo cache's folder
/// (`FilePhotoCache`) is prepared the same way.
struct StoreDirectory {
    let url: URL
    let logger: ReceptionLogger
    /// What the folder holds, for log lines.
    var contents = "message cache"

    @_optimize(size) var databaseURL: URL { url.appendingPathComponent(SQLiteMessageStore.fileName) }

    /// The file SQLite keeps beside the database in WAL mode, by suffix.
    private static let companionSuffixes = ["", "-wal", "-shm"]

    /// Creates the folder (mode 0700) and applies the platform's protection.
    @inline(never) @_optimize(size) func prepare() throws(ReceptionError) {
        do {
            try PrivateFiles.createFolder(url)
        } catch {
            logger.write(.error, "\(contents) folder could not be created")
            throw .storageUnavailable
        }
        excludeFromBackup()
    }

    /// Makes the database file exist with mode 0600 before SQLite opens it, because SQLite creates its `-wal` and
    /// `-shm` files with the database's mode; companions an earlier version left readable by others are tightened.
    @inline(never) @_optimize(size) func prepareDatabaseFile() throws(ReceptionError) {
        do {
            try PrivateFiles.createEmptyFile(databaseURL)
        } catch {
            logger.write(.error, "message cache file could not be created (\(error.code))")
            throw error
        }
        for suffix in Self.companionSuffixes { PrivateFiles.restrict(URL(fileURLWithPath: databaseURL.path + suffix)) }
    }

    /// Renames the database and its WAL companions to `*.damaged*`, replacing an earlier damaged copy, so the
    /// bytes stay on disk for diagnosis but are never opened again. The WAL goes too: a stale log beside a new
    /// database must not be replayed into it.
    @inline(never) @_optimize(size) func moveDatabaseAside() throws(ReceptionError) {
        let manager = FileManager.default
        for suffix in Self.companionSuffixes {
            let source = URL(fileURLWithPath: databaseURL.path + suffix)
            let target = URL(fileURLWithPath: databaseURL.path + ".damaged" + suffix)
            guard manager.fileExists(atPath: source.path) else { continue }
            do {
                if manager.fileExists(atPath: target.path) { try manager.removeItem(at: target) }
                try manager.moveItem(at: source, to: target)
            } catch {
                logger.write(.error, "damaged message cache could not be moved aside")
                throw .storageUnavailable
            }
        }
    }

    /// Removes the damaged copies `moveDatabaseAside()` left (issue 15: they hold a previous user's chat, and a
    /// logout or deletion must leave nothing of it). Returns `false` when one could not be removed.
    @discardableResult
    @inline(never) @_optimize(size) func removeDamagedCopies() -> Bool {
        var removedAll = true
        for suffix in Self.companionSuffixes {
            let path = databaseURL.path + ".damaged" + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do { try FileManager.default.removeItem(atPath: path) } catch { removedAll = false }
        }
        if !removedAll { logger.write(.error, "a damaged copy of the message cache could not be removed") }
        return removedAll
    }

    @inline(never) @_optimize(size) private func excludeFromBackup() {
        #if canImport(Darwin)
        var folder = url
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        do { try folder.setResourceValues(values) } catch {
            logger.write(.error, "\(contents) folder could not be excluded from backups")
        }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        // Spec 7.17: readable after the first unlock, like the reference cache file, so a launch in the
        // background after a reboot-and-unlock can still read the outbox. Set as the folder's resource value (the
        // class new files in it take) with the constant's string: `FileManager.setAttributes` takes a dictionary
        // keyed by `FileAttributeKey` and the value would be a `FileProtectionType`, and each imported type brings
        // its six conformances into the app (4.3 kB; Docs/Footprint.md, "Size on iOS").
        try? (url as NSURL).setResourceValue(
            URLFileProtection.completeUntilFirstUserAuthentication.rawValue, forKey: .fileProtectionKey)
        #endif
        #endif
    }
}
