import Digest
import Foundation
import ReceptionCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `SecureStoring` over plain files, for platforms without a keychain (Linux hosts, the terminal host app).
///
/// Layout: `<directory>/<namespace>/<account>`, folders mode 0700, files mode 0600, names percent-encoded. Each file
/// holds a small header with the payload length and its SHA-256, so a torn or tampered file is recognised.
///
/// Documented outcomes (see Docs/SecureStore.md):
/// - missing folder or file → `.missing`; the folder is created on the first write;
/// - a corrupt file (bad header, wrong length or checksum), a symlink, something that is not a regular file, an item
///   owned by another user, or an I/O error → `.unavailable`, never `.missing`; the file is left in place so a later
///   write replaces it and nothing readable is lost;
/// - a file or folder readable by others → permissions tightened to 0600/0700 and an info log; the value is returned;
/// - a failed write (full disk, read-only file system) → `secure_storage_unavailable`; the previous value stays
///   intact because the new one is written to a temporary file, synced, and renamed over it.
public final class FileSecureStore: SecureStoring {
    /// Where a write can be made to fail in tests (full disk, I/O error).
    package enum WritePhase: Sendable { case write, sync, rename }

    private let directory: String
    private let logger: ReceptionLogger
    private let faultInjection: (@Sendable (WritePhase) -> Int32?)?
    /// Serialises writers inside the process; across processes the rename keeps every reader consistent.
    private let writeLock = Locked(0)

    /// A store rooted at `directory` (created on the first write).
    @_optimize(size)
    public convenience init(directory: URL, logger: ReceptionLogger = ReceptionLogger(category: "SecureStore")) {
        self.init(directory: directory, logger: logger, faultInjection: nil)
    }

    /// A store whose writes fail with the returned `errno` at the given phase (tests only).
    @_optimize(size) package init(
        directory: URL, logger: ReceptionLogger, faultInjection: (@Sendable (WritePhase) -> Int32?)?
    ) {
        self.directory = directory.path
        self.logger = logger
        self.faultInjection = faultInjection
    }

    /// The default location for a host: `<Application Support>/com.reception.sdk/secure`.
    @_optimize(size) public static func defaultDirectory() -> URL {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        return base.appendingPathComponent("com.reception.sdk", isDirectory: true)
            .appendingPathComponent("secure", isDirectory: true)
    }

    // MARK: SecureStoring

    @_optimize(size) public func read(_ key: SecureStoreKey) -> SecureStoreRead {
        let path = itemPath(key)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return .missing }
            return unavailable("open failed (errno \(code))", key)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return unavailable("stat failed (errno \(errno))", key) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return unavailable("not a regular file", key) }
        guard info.st_uid == geteuid() else { return unavailable("owned by another user", key) }
        if info.st_mode & 0o077 != 0 {
            if fchmod(fd, 0o600) == 0 {
                logger.write(.info, "tightened permissions of \(key.account) to 0600")
            } else {
                return unavailable("permissions too open and cannot be tightened", key)
            }
        }
        guard info.st_size <= off_t(ItemFile.maximumSize) else { return unavailable("item too large", key) }
        guard let bytes = readAll(fd, expected: Int(info.st_size)) else {
            return unavailable("read failed (errno \(errno))", key)
        }
        guard let payload = ItemFile.decode(bytes) else { return unavailable("corrupt item", key) }
        return .value(Data(payload))
    }

    @_optimize(size) public func write(_ value: Data, for key: SecureStoreKey) throws(ReceptionError) {
        guard value.count <= ItemFile.maximumSize - ItemFile.headerSize else {
            logger.write(.error, "refused to store \(key.account): \(value.count) bytes is over the item limit")
            throw ReceptionError.secureStorageUnavailable
        }
        try writeLock.withLock { _ throws(ReceptionError) in try replaceItem(value, for: key) }
    }

    // The writes under the lock. Functions of their own, never inlined, rather than the bodies of the `withLock`
    // closures: a closure is compiled at the host's -O, a cold function for size (Docs/Footprint.md).

    @inline(never)
    @_optimize(size) private func replaceItem(_ value: Data, for key: SecureStoreKey) throws(ReceptionError) {
        let folder = try prepareFolder(namespace: key.namespace)
        let finalPath = folder + "/" + Self.encodeName(key.account)
        let tempPath = folder + "/.tmp-" + Self.encodeName(key.account) + "-\(getpid())"
        try writeFile(tempPath, bytes: ItemFile.encode(Array(value)), key: key)
        if let code = faultInjection?(.rename) ?? (rename(tempPath, finalPath) == 0 ? nil : errno) {
            unlink(tempPath)
            logger.write(.error, "could not replace \(key.account) (errno \(code)); the previous value is kept")
            throw ReceptionError.secureStorageUnavailable
        }
        syncFolder(folder)
    }

    @_optimize(size) public func delete(_ key: SecureStoreKey) throws(ReceptionError) {
        try writeLock.withLock { _ throws(ReceptionError) in try removeItem(key) }
    }

    @inline(never) @_optimize(size) private func removeItem(_ key: SecureStoreKey) throws(ReceptionError) {
        if unlink(itemPath(key)) != 0, errno != ENOENT, errno != ENOTDIR {
            logger.write(.error, "could not delete \(key.account) (errno \(errno))")
            throw ReceptionError.secureStorageUnavailable
        }
        syncFolder(folderPath(key.namespace))
    }

    @_optimize(size) public func deleteAll(namespace: String) throws(ReceptionError) {
        try writeLock.withLock { _ throws(ReceptionError) in try removeNamespace(namespace) }
    }

    @inline(never) @_optimize(size) private func removeNamespace(_ namespace: String) throws(ReceptionError) {
        let folder = folderPath(namespace)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            var info = stat()
            if lstat(folder, &info) != 0, errno == ENOENT { return }
            logger.write(.error, "could not list a namespace folder for deletion")
            throw ReceptionError.secureStorageUnavailable
        }
        for entry in entries where unlink(folder + "/" + entry) != 0 && errno != ENOENT {
            logger.write(.error, "could not delete an item of a namespace (errno \(errno))")
            throw ReceptionError.secureStorageUnavailable
        }
        if rmdir(folder) != 0, errno != ENOENT {
            logger.write(.error, "could not remove a namespace folder (errno \(errno))")
            throw ReceptionError.secureStorageUnavailable
        }
        syncFolder(directory)
    }

    // MARK: Paths

    @_optimize(size)
    private func folderPath(_ namespace: String) -> String { directory + "/" + Self.encodeName(namespace) }

    @_optimize(size) private func itemPath(_ key: SecureStoreKey) -> String {
        folderPath(key.namespace) + "/" + Self.encodeName(key.account)
    }

    /// A file-name-safe form of a namespace or account: ASCII letters, digits, `-`, `_` and inner `.` stay, every
    /// other byte becomes `%XX`; names that would exceed 200 bytes become `~` plus their SHA-256 in hex.
    @_optimize(size) static func encodeName(_ name: String) -> String {
        var out = ""
        for (index, byte) in name.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ".") where index > 0:
                out.append(".")
            default:
                Hex.percentEncode(byte, to: &out)
            }
        }
        if out.isEmpty { out = "%" }
        return out.utf8.count > 200 ? "~" + Hex.encode(SHA256.hash(Array(name.utf8))) : out
    }

    // MARK: File operations

    @_optimize(size) private func prepareFolder(namespace: String) throws(ReceptionError) -> String {
        try ensureFolder(directory, createParents: true)
        let folder = folderPath(namespace)
        try ensureFolder(folder, createParents: false)
        return folder
    }

    @_optimize(size) private func ensureFolder(_ path: String, createParents: Bool) throws(ReceptionError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                logger.write(.error, "secure store path is not a folder")
                throw ReceptionError.secureStorageUnavailable
            }
            if info.st_mode & 0o077 != 0 {
                guard chmod(path, 0o700) == 0 else {
                    logger.write(.error, "secure store folder permissions are too open and cannot be tightened")
                    throw ReceptionError.secureStorageUnavailable
                }
                logger.write(.info, "tightened secure store folder permissions to 0700")
            }
            return
        }
        if createParents {
            guard Self.makeFolders(path) else {
                logger.write(.error, "could not create the secure store folder (errno \(errno))")
                throw ReceptionError.secureStorageUnavailable
            }
        } else if mkdir(path, 0o700) != 0, errno != EEXIST {
            logger.write(.error, "could not create a namespace folder (errno \(errno))")
            throw ReceptionError.secureStorageUnavailable
        }
        // mkdir applies the umask; make the mode exact.
        chmod(path, 0o700)
    }

    /// Creates `path` and every missing folder above it, each with mode 0700, as `FileManager.createDirectory` with
    /// intermediate folders and those attributes did. Folder by folder with `mkdir`: the attributes' dictionary is
    /// keyed by `FileAttributeKey`, which brings that imported type's six conformances into an iOS app (2.5 kB;
    /// Docs/Footprint.md, "Size on iOS").
    @_optimize(size) private static func makeFolders(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        let slash = UInt8(ascii: "/")
        for end in bytes.indices.dropFirst() where bytes[end] == slash && bytes[end - 1] != slash {
            guard makeFolder(String(decoding: bytes[..<end], as: UTF8.self)) else { return false }
        }
        return makeFolder(path)
    }

    /// One folder of `makeFolders`: made with mode 0700 exactly (`mkdir` applies the umask), or kept when a folder is
    /// there already. A sandbox can answer `mkdir` on an existing folder outside the app's container with `EPERM`
    /// rather than `EEXIST`, so any failure is checked against what is there.
    @_optimize(size) private static func makeFolder(_ path: String) -> Bool {
        if mkdir(path, 0o700) == 0 { return chmod(path, 0o700) == 0 }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    @_optimize(size)
    private func writeFile(_ path: String, bytes: [UInt8], key: SecureStoreKey) throws(ReceptionError) {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            logger.write(.error, "could not create a temporary item file (errno \(errno))")
            throw ReceptionError.secureStorageUnavailable
        }
        var failure: Int32?
        var offset = 0
        while failure == nil, offset < bytes.count {
            if let injected = faultInjection?(.write) { failure = injected; break }
            let written = bytes.withUnsafeBytes { buffer in
                Glibc_write(fd, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
            } else {
                offset += written
            }
        }
        if failure == nil {
            failure = faultInjection?(.sync) ?? (fsync(fd) == 0 ? nil : errno)
        }
        close(fd)
        if let failure {
            unlink(path)
            logger.write(.error, "could not write \(key.account) (errno \(failure)); the previous value is kept")
            throw ReceptionError.secureStorageUnavailable
        }
    }

    @_optimize(size) private func readAll(_ fd: Int32, expected: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: max(expected, 0))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc_read(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            offset += count
        }
        return Array(bytes[0..<offset])
    }

    @_optimize(size) private func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    @_optimize(size) private func unavailable(_ reason: String, _ key: SecureStoreKey) -> SecureStoreRead {
        logger.write(.error, "secure item \(key.account) unavailable: \(reason)")
        return .unavailable(reason: reason)
    }
}

// The module-qualified POSIX calls, named so they do not collide with the store's own methods.
@_optimize(size) private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.write(fd, buffer, count)
    #else
    Glibc.write(fd, buffer, count)
    #endif
}

@_optimize(size) private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.read(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.read(fd, buffer, count)
    #else
    Glibc.read(fd, buffer, count)
    #endif
}
