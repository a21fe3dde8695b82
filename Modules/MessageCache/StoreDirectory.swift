import Foundation
import ReceptionCore

/// The folder the cache file lives in: created on demand, kept out of backups on Apple platforms (seed 001,
/// "the history cache is excluded from backups"), and where a damaged file is moved aside.
struct StoreDirectory {
    let url: URL
    let logger: ReceptionLogger

    var databaseURL: URL { url.appendingPathComponent(SQLiteMessageStore.fileName) }

    /// The file SQLite keeps beside the database in WAL mode, by suffix.
    private static let companionSuffixes = ["", "-wal", "-shm"]

    /// Creates the folder and applies the platform's protection.
    func prepare() throws(ReceptionError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            logger.error("message cache folder could not be created")
            throw .storageUnavailable
        }
        excludeFromBackup()
    }

    /// Renames the database and its WAL companions to `*.damaged*`, replacing an earlier damaged copy, so the
    /// bytes stay on disk for diagnosis but are never opened again. The WAL goes too: a stale log beside a new
    /// database must not be replayed into it.
    func moveDatabaseAside() throws(ReceptionError) {
        let manager = FileManager.default
        for suffix in Self.companionSuffixes {
            let source = URL(fileURLWithPath: databaseURL.path + suffix)
            let target = URL(fileURLWithPath: databaseURL.path + ".damaged" + suffix)
            guard manager.fileExists(atPath: source.path) else { continue }
            do {
                if manager.fileExists(atPath: target.path) { try manager.removeItem(at: target) }
                try manager.moveItem(at: source, to: target)
            } catch {
                logger.error("damaged message cache could not be moved aside")
                throw .storageUnavailable
            }
        }
    }

    private func excludeFromBackup() {
        #if canImport(Darwin)
        var folder = url
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        do { try folder.setResourceValues(values) } catch {
            logger.error("message cache folder could not be excluded from backups")
        }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        // Spec 7.17: readable after the first unlock, like the reference cache file, so a launch in the
        // background after a reboot-and-unlock can still read the outbox.
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)
        #endif
        #endif
    }
}
